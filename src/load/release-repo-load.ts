/**
 * What one release writes to each release repository: the branches the Stages render into and
 * the commits and pull requests a release passing every Stage once makes. Read from the Stages'
 * promotion steps (with the steps of the PromotionTasks they call inlined): `git-clone` checkouts
 * name the branch at a path, `git-commit` commits at a path, `git-open-pr` opens a pull request
 * (Kargo v1.11.2 `pkg/promotion/runner/builtin/git_cloner.go`, `git_commiter.go`, `git_pr_opener.go`).
 * @internal
 */
export interface ReleaseRepoLoad {
  readonly repoURL: string;
  readonly branches: number;
  readonly stages: number;
  readonly commitsPerRelease: number;
  readonly pullRequestsPerRelease: number;
}

/** @internal */
export function measureReleaseRepos(objects: any[]): ReleaseRepoLoad[] {
  const tasks = new Map<string, any[]>();
  for (const t of objects.filter(o => o?.kind === 'PromotionTask')) tasks.set(`${t.metadata?.namespace}/${t.metadata?.name}`, t.spec?.steps ?? []);
  const repos = new Map<string, { branches: Set<string>; stages: Set<string>; commits: number; prs: number }>();
  const repo = (url: string) => {
    const found = repos.get(url) ?? { branches: new Set<string>(), stages: new Set<string>(), commits: 0, prs: 0 };
    repos.set(url, found);
    return found;
  };
  for (const stage of objects.filter(o => o?.kind === 'Stage')) {
    const namespace = stage.metadata?.namespace;
    const steps = (stage.spec?.promotionTemplate?.spec?.steps ?? []).flatMap((s: any) =>
      s.task ? tasks.get(`${namespace}/${s.task.name}`) ?? [] : [s]);
    const atPath = new Map<string, string>();
    const id = `${namespace}/${stage.metadata?.name}`;
    for (const step of steps) {
      const config = step.config ?? {};
      if (step.uses === 'git-clone') {
        for (const c of config.checkout ?? []) {
          atPath.set(normalize(c.path), config.repoURL);
          // a branch written by an expression is not one name: count only literal branches
          if (typeof c.branch === 'string' && !c.branch.includes('${{')) repo(config.repoURL).branches.add(c.branch);
        }
      } else if (step.uses === 'git-commit') {
        const url = atPath.get(normalize(config.path));
        if (url) {
          repo(url).commits++;
          repo(url).stages.add(id);
        }
      } else if (step.uses === 'git-open-pr' && config.repoURL) {
        repo(config.repoURL).prs++;
      }
    }
  }
  return [...repos.entries()].filter(([, r]) => r.commits > 0).sort(([a], [b]) => a.localeCompare(b)).map(([repoURL, r]) => ({
    repoURL, branches: r.branches.size, stages: r.stages.size, commitsPerRelease: r.commits, pullRequestsPerRelease: r.prs,
  }));
}

function normalize(p: unknown): string {
  return String(p ?? '').replace(/^\.\//, '').replace(/\/+$/, '');
}
