import * as fs from 'fs';
import * as path from 'path';
import * as YAML from 'yaml';
import { PlatformLabels } from '../../src';
import { ManifestSet } from '../../src/cli/manifest-set';

// Hand-made synthesized trees for the CLI tests: apps shaped like the library's output.
export const KARGO = 'kargo.akuity.io/v1alpha1';
export const ARGO = 'argoproj.io/v1alpha1';
export const MANIFESTS = path.join(__dirname, '..', '..', 'manifests');

export interface StageSpec {
  readonly stage: string;
  /** clusters per wave */
  readonly waves: string[][];
  readonly auto?: boolean;
  readonly pullRequest?: boolean;
  readonly soak?: string;
  /** the soak as the library writes it now: an annotation, waited in the upstream's checks */
  readonly soakAnnotation?: string;
}

export interface AppSpec {
  readonly stages: StageSpec[];
  /** One ApplicationSet for the app with a generator per wave (the library's shape), instead of one per wave. */
  readonly family?: boolean;
  readonly image?: string;
  readonly syncWindows?: any[];
  readonly projectAnnotations?: Record<string, string>;
}

/** A hand-made synthesized app, shaped like the library's output. */
export function appObjects(name: string, spec: AppSpec): Array<{ file: string; obj: any }> {
  const file = `${name}.k8s.yaml`;
  const labels = { [PlatformLabels.APP]: name };
  const objs: any[] = projectObjects(name, spec, labels);
  let upstream: string[] = [];
  const generators: any[] = [];
  for (const s of spec.stages) {
    s.waves.forEach((clusters, i) => {
      const wave = waveName(s, i);
      const stageLabels = { ...labels, [PlatformLabels.PIPELINE_STAGE]: s.stage };
      objs.push(stageObject(name, s, wave, upstream, stageLabels));
      const selector = { matchExpressions: [{ key: PlatformLabels.CLUSTER, operator: 'In', values: clusters }] };
      if (spec.family) {
        generators.push({ clusters: { selector, values: { pipelineStage: s.stage, kargoStage: wave, releaseBranch: `rendered/${name}/${wave}` } } });
      } else {
        objs.push(waveApplicationSet(name, wave, selector, stageLabels));
      }
      upstream = [wave];
    });
  }
  if (spec.family) objs.push(familyApplicationSet(name, generators, labels));
  return objs.map((obj) => ({ file, obj }));
}

/** The app's Kargo Project, ProjectConfig and Warehouse and its Argo CD AppProject. */
function projectObjects(name: string, spec: AppSpec, labels: Record<string, string>): any[] {
  return [
    { apiVersion: KARGO, kind: 'Project', metadata: { name, labels } },
    {
      apiVersion: KARGO,
      kind: 'ProjectConfig',
      metadata: { name, namespace: name, labels },
      spec: {
        promotionPolicies: spec.stages.filter((s) => s.auto)
          .flatMap((s) => s.waves.map((_w, i) => ({ autoPromotionEnabled: true, stageSelector: { name: waveName(s, i) } }))),
      },
    },
    {
      apiVersion: KARGO,
      kind: 'Warehouse',
      metadata: { name, namespace: name, labels },
      spec: { subscriptions: [{ image: { repoURL: spec.image ?? `ghcr.io/acme/${name}`, imageSelectionStrategy: 'SemVer', constraint: '^1.0.0' } }] },
    },
    {
      apiVersion: ARGO,
      kind: 'AppProject',
      metadata: { name, namespace: 'argocd', labels, annotations: spec.projectAnnotations },
      spec: { sourceRepos: ['*'], ...(spec.syncWindows ? { syncWindows: spec.syncWindows } : {}) },
    },
  ];
}

/** The Kargo Stage of one wave, promoted from the previous wave (or the Warehouse). */
function stageObject(name: string, s: StageSpec, wave: string, upstream: string[], stageLabels: Record<string, string>): any {
  const annotations = s.soakAnnotation ? { annotations: { [PlatformLabels.SOAK]: s.soakAnnotation } } : {};
  return {
    apiVersion: KARGO,
    kind: 'Stage',
    metadata: { name: wave, namespace: name, labels: stageLabels, ...annotations },
    spec: {
      requestedFreight: [{ origin: { kind: 'Warehouse', name }, sources: upstream.length ? { stages: upstream, ...(s.soak ? { requiredSoakTime: s.soak } : {}) } : { direct: true } }],
      promotionTemplate: { spec: { steps: [{ uses: 'git-clone' }, ...(s.pullRequest ? [{ uses: 'git-open-pr' }] : []), { uses: 'argocd-update' }] } },
      verification: { analysisTemplates: [{ name: `${wave}-smoke` }] },
    },
  };
}

/** An ApplicationSet of one wave (the shape before ApplicationSet families). */
function waveApplicationSet(name: string, wave: string, selector: any, stageLabels: Record<string, string>): any {
  return {
    apiVersion: ARGO,
    kind: 'ApplicationSet',
    metadata: { name: `${name}-${wave}`, namespace: 'argocd', labels: { ...stageLabels, [PlatformLabels.STAGE]: wave } },
    spec: {
      generators: [{ clusters: { selector } }],
      template: {
        metadata: { name: `${name}-{{ .name }}` },
        spec: { project: name, destination: { name: '{{ .name }}', namespace: name }, source: { repoURL: RELEASES, targetRevision: `rendered/${name}/${wave}` } },
      },
    },
  };
}

/** The app's one ApplicationSet with a generator per wave (the library's shape). */
function familyApplicationSet(name: string, generators: any[], labels: Record<string, string>): any {
  return {
    apiVersion: ARGO,
    kind: 'ApplicationSet',
    metadata: { name, namespace: 'argocd', labels },
    spec: {
      generators,
      template: {
        metadata: {
          name: `${name}-{{ .name }}`,
          labels: { [PlatformLabels.PIPELINE_STAGE]: '{{ .values.pipelineStage }}', [PlatformLabels.STAGE]: '{{ .values.kargoStage }}' },
        },
        spec: { project: name, destination: { name: '{{ .name }}', namespace: name }, source: { repoURL: RELEASES, targetRevision: '{{ .values.releaseBranch }}' } },
      },
    },
  };
}

const RELEASES = 'https://github.com/acme/releases.git';

export function waveName(s: StageSpec, i: number): string {
  return s.waves.length === 1 ? s.stage : `${s.stage}-w${i + 1}`;
}

export function fleet(clusters: Record<string, string>): Array<{ file: string; obj: any }> {
  return Object.entries(clusters).map(([name, tier]) => ({
    file: 'fleet.k8s.yaml',
    obj: {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: `cluster-${name}`, namespace: 'argocd', labels: { 'argocd.argoproj.io/secret-type': 'cluster', [PlatformLabels.CLUSTER]: name, [PlatformLabels.TIER]: tier } },
      stringData: { name, server: `https://${name}.example.com` },
    },
  }));
}

export const CLUSTERS: Record<string, string> = { 'dev-1': 'dev' };
for (let i = 1; i <= 20; i++) CLUSTERS[`prod-${i}`] = 'prod';
export const prod = (...ns: number[]) => ns.map((n) => `prod-${n}`);
export const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_x, i) => from + i);

export const API: AppSpec = {
  stages: [
    { stage: 'dev', waves: [['dev-1']], auto: true },
    { stage: 'prod', waves: [prod(1), prod(2, 3), prod(4, 5, 6, 7)], pullRequest: true, soak: '1h' },
  ],
};
/** API with other production waves. */
export const withProdWaves = (...waves: string[][]): AppSpec => ({ ...API, stages: [API.stages[0], { ...API.stages[1], waves }] });
export const WEB: AppSpec = { stages: [{ stage: 'dev', waves: [['dev-1']], auto: true }, { stage: 'prod', waves: [prod(1, 2)] }] };

export function tree(apps: Record<string, AppSpec>, clusters = CLUSTERS): ManifestSet {
  return ManifestSet.fromObjects([...fleet(clusters), ...Object.entries(apps).flatMap(([name, spec]) => appObjects(name, spec))]);
}


/** Writes a set as YAML files (one per `file`) into `dir`; returns `dir`. */
export function writeTree(dir: string, set: ManifestSet): string {
  fs.mkdirSync(dir, { recursive: true });
  const files = new Map<string, any[]>();
  set.objects.forEach((o) => files.set(o.file, [...(files.get(o.file) ?? []), o.obj]));
  files.forEach((objs, file) => fs.writeFileSync(path.join(dir, file), objs.map((o) => YAML.stringify(o)).join('---\n')));
  return dir;
}

/** A CliIo that records what the CLI writes. */
export function recordingIo(cwd: string, stderrIsTty = false) {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { cwd, stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t), stderrIsTty } };
}
