import { clusterSecrets, secretData } from './argocd-applications';
import { ControllerFinding, filepathMatch, finding, globMatch, sourceOf } from './controller-finding';
import { normalizeGitUrl } from './git-world';
import { ModelApplication } from './kargo-steps';

/**
 * Argo CD v3.5.1's project permission check for what a sync creates, per Application:
 * - with `CreateNamespace=true` the destination Namespace is a sync task like any other
 *   (`gitops-engine/pkg/sync/sync_context.go` `autoCreateNamespace`, run before the
 *   `permissionValidator` loop) and is checked by `controller/sync.go` with
 *   `AppProject.IsGroupKindNamePermitted`: cluster-scoped kinds need a `clusterResourceWhitelist`
 *   entry whose group, kind and optional `name` match with Go `filepath.Match`
 *   (`pkg/apis/application/v1alpha1/types.go` `isNamedResourceInList`);
 * - the destination must match `spec.destinations` (`app_project_types.go`
 *   `isDestinationMatched`: server or name glob, and namespace glob; `!` denies);
 * - every source repository must match `spec.sourceRepos` (`IsSourcePermitted`), to which Argo CD
 *   adds the URL of every repository Secret scoped to the project (`util/argo/argo.go`
 *   `GetAppProjectByName`: `db.GetProjectRepositories`, which indexes the `repository` Secrets of
 *   Argo CD's namespace by their `project` key, `util/settings/settings.go` `byProjectIndexerFunc`).
 */
export function checkProjectPermissions(objects: any[], apps: ModelApplication[]): ControllerFinding[] {
  const projects = objects.filter((o) => o?.kind === 'AppProject');
  const repositories = scopedRepositories(objects);
  const clusters = clusterSecrets(objects).map((s) => ({ name: secretData(s).name, server: secretData(s).server }));
  const groups = new Map<string, { f: ControllerFinding; apps: string[] }>();
  const add = (app: ModelApplication, f: ControllerFinding) => {
    const key = JSON.stringify([sourceOf(f), f.kind, f.name, f.path, f.code, f.message]);
    const g = groups.get(key) ?? { f, apps: [] };
    g.apps.push(app.name);
    groups.set(key, g);
  };
  for (const app of apps) {
    for (const f of checkApplication(app, projects, repositories, clusters)) add(app, f);
  }
  return [...groups.values()].map(({ f, apps: names }) => ({ ...f, message: `${f.message} (Application${names.length > 1 ? 's' : ''} ${abbreviate(names)})` }));
}

function checkApplication(app: ModelApplication, projects: any[], repositories: Map<string, string[]>,
  clusters: Array<{ name?: string; server?: string }>): ControllerFinding[] {
  const origin = app.origin;
  const candidates = projects.filter((p) => p.metadata?.name === app.project);
  const project = candidates.find((p) => sourceOf(p) === sourceOf(origin.obj)) ?? candidates[0];
  if (!project) {
    return [finding(origin.obj, `${origin.path}/project`, 'project-not-found', `application references project ${app.project} which does not exist: Argo CD refuses to sync it`)];
  }
  const spec = project.spec ?? {};
  const out: ControllerFinding[] = [];
  const ns = app.destination.namespace ?? '';
  if (app.syncOptions.includes('CreateNamespace=true') && ns !== '' && !isClusterKindPermitted(spec, '', 'Namespace', ns)) {
    out.push(finding(origin.obj, `${origin.path}/syncPolicy/syncOptions`,
      'namespace-not-permitted',
      `CreateNamespace=true makes Argo CD create Namespace ${JSON.stringify(ns)}, but AppProject ${project.metadata.name} has no clusterResourceWhitelist entry matching group "" kind Namespace name ${JSON.stringify(ns)}: every first sync fails with "resource :Namespace is not permitted in project ${project.metadata.name}"`));
  }
  const cluster = resolveCluster(app, clusters);
  if (!cluster) {
    out.push(finding(origin.obj, `${origin.path}/destination`, 'cluster-not-found', `destination ${JSON.stringify(app.destination)} names no cluster Argo CD knows: the Application shows InvalidSpecError`));
  } else if (!isDestinationMatched(spec.destinations ?? [], { ...cluster, namespace: ns })) {
    out.push(finding(origin.obj, `${origin.path}/destination`, 'destination-not-permitted',
      `destination server ${JSON.stringify(cluster.server)} (name ${JSON.stringify(cluster.name)}) namespace ${JSON.stringify(ns)} is not permitted in project ${project.metadata.name}: the sync fails`));
  }
  app.sources.forEach((src, i) => {
    if (src.repoURL && !isSourcePermitted([...spec.sourceRepos ?? [], ...repositories.get(projectKey(project)) ?? []], src.repoURL)) {
      out.push(finding(origin.obj, `${origin.path}/${app.sources.length > 1 ? `sources/${i}` : 'source'}/repoURL`, 'source-repo-not-permitted',
        `application repo ${src.repoURL} is not permitted in project ${project.metadata.name}: the Application shows InvalidSpecError`));
    }
  });
  return out;
}

/**
 * The repositories each `repository` Secret scopes to a project, by project: the project's
 * namespace, its Argo CD (the same file, as the library writes each Argo CD's objects) and its
 * name. Indexed once, as Argo CD's informer does, not searched per Application.
 */
function scopedRepositories(objects: any[]): Map<string, string[]> {
  const byProject = new Map<string, string[]>();
  for (const o of objects) {
    if (o?.kind !== 'Secret' || o.metadata?.labels?.['argocd.argoproj.io/secret-type'] !== 'repository') continue;
    const data = secretData(o);
    if (!data.project || !data.url) continue;
    const key = JSON.stringify([o.metadata?.namespace ?? '', sourceOf(o), data.project]);
    byProject.set(key, [...byProject.get(key) ?? [], data.url]);
  }
  return byProject;
}

function projectKey(project: any): string {
  return JSON.stringify([project.metadata?.namespace ?? '', sourceOf(project), project.metadata?.name]);
}

/** `IsGroupKindNamePermitted` for a cluster-scoped kind. */
export function isClusterKindPermitted(spec: any, group: string, kind: string, name: string): boolean {
  const matches = (list: any[]) => list.some((item) => filepathMatch(item.kind ?? '', kind) && filepathMatch(item.group ?? '', group)
    && (!item.name || filepathMatch(item.name, name)));
  const white: any[] = spec.clusterResourceWhitelist ?? [];
  const black: any[] = spec.clusterResourceBlacklist ?? [];
  return white.length > 0 && matches(white) && !(black.length > 0 && matches(black));
}

function resolveCluster(app: ModelApplication, clusters: Array<{ name?: string; server?: string }>): { name?: string; server?: string } | undefined {
  const all = [{ name: 'in-cluster', server: 'https://kubernetes.default.svc' }, ...clusters];
  const d = app.destination;
  if (d.server) return all.find((c) => c.server === d.server) ?? { server: d.server };
  return all.find((c) => c.name === d.name);
}

function isDestinationMatched(destinations: any[], dst: { name?: string; server?: string; namespace: string }): boolean {
  let any = false;
  for (const item of destinations) {
    const nameOk = !!dst.name && globMatch(item.name, dst.name);
    const serverOk = !!dst.server && globMatch(item.server, dst.server);
    const nsOk = globMatch(item.namespace, dst.namespace);
    if ((nameOk || serverOk) && nsOk) any = true;
    else if (((!nameOk && item.name?.startsWith('!')) || (!serverOk && item.server?.startsWith('!'))) && nsOk) return false;
    else if (!nsOk && item.namespace?.startsWith('!') && serverOk) return false;
  }
  return any;
}

function isSourcePermitted(repos: string[], repoURL: string): boolean {
  const src = normalizeGitUrl(repoURL);
  let matched = false;
  for (const repo of repos) {
    const deny = repo.startsWith('!');
    const pattern = normalizeGitUrl(deny ? repo.slice(1) : repo);
    const hit = pattern === '*' || globMatch(pattern, src);
    if (deny && hit) return false;
    if (!deny && hit) matched = true;
  }
  return matched;
}

function abbreviate(names: string[]): string {
  const unique = [...new Set(names)];
  return unique.length <= 3 ? unique.join(', ') : `${unique.slice(0, 3).join(', ')} and ${unique.length - 3} more`;
}
