import * as fs from 'fs';
import * as path from 'path';
import { SMALL_FLEET, standardPipeline } from './fixtures';
import { fastImport, ImportCommit } from '../../bench/git-fast-import';
import {
  Artifact, ClusterFleet, ClusterOptions, ManifestSource, PlatformApp, PlatformAppProps, PlatformSynthApp, PromotionPipeline, PromotionPipelineProps,
  Versioning,
} from '../../src';
import { ManifestSet } from '../../src/cli/manifest-set';
import { modelApplications } from '../../src/testkit/model/argocd-applications';
import { SimulatedFreight } from '../../src/testkit/model/freight';
import { GitWorld, WorkDir } from '../../src/testkit/model/git-world';
import { requestedWarehouses } from '../../src/testkit/model/kargo-promotion-model';
import { ModelApplication } from '../../src/testkit/model/kargo-steps';
import { inflateSteps, PromotionResult, runPromotion } from '../../src/testkit/model/promotion-runner';

// Release repositories made the way Kargo makes them: the synthesized Stages' own promotion
// steps, run by the test kit's model of Kargo v1.11.2 (git-clone creating the branch with its
// empty first commit, git-clear, the render task per cluster into `<cluster>/manifests.yaml`,
// git-commit with the evaluated message, git-push, and for a pull-request stage the merge), then
// written into a real git repository with the time of each promotion.

/** What an app's props may refer to. */
export interface PlatformParts {
  readonly fleet: ClusterFleet;
  readonly pipeline: PromotionPipeline;
}

/** Synthesizes a fleet, a pipeline and apps into `outdir` with the library's own synth. */
export function synthesizePlatform(outdir: string, apps: Record<string, (w: PlatformParts) => Partial<PlatformAppProps>>,
  clusters: ClusterOptions[] = SMALL_FLEET, pipelineProps: PromotionPipelineProps = {}): void {
  const app = new PlatformSynthApp({ outdir });
  const fleet = new ClusterFleet(app, 'fleet', { clusters });
  const pipeline = standardPipeline(app, pipelineProps);
  for (const [name, props] of Object.entries(apps)) {
    new PlatformApp(app, name, { ...baseProps(name), fleet, pipeline, ...props({ fleet, pipeline }) } as PlatformAppProps);
  }
  app.synth();
}

function baseProps(name: string): Partial<PlatformAppProps> {
  return {
    owner: { team: 'payments', contact: '#payments' },
    artifacts: [Artifact.image(`ghcr.io/acme/${name}`, { versioning: Versioning.semver('^1.0.0') })],
    source: ManifestSource.helm({ repoUrl: `https://github.com/acme/${name}.git`, path: 'chart', valuesFiles: ['values-{stage}.yaml'] }),
    releaseRepo: 'https://github.com/acme/releases.git',
  };
}

/** A promotion to run. */
export interface ModelPromotion {
  /** The Kargo Project (the app). */
  readonly project: string;
  readonly stage: string;
  /** 1 = the older versions, 2 = the newer (`SimulatedFreight`). */
  readonly generation: number;
  /** When it runs (the commit time). */
  readonly at: string;
  readonly alias?: string;
  /** Artifacts at another generation (`kind:repoURL`). */
  readonly overrides?: Record<string, number>;
}

export class ModelReleaseRepo {
  public readonly world = new GitWorld();
  private readonly objects: any[];
  private readonly apps: ModelApplication[];
  private readonly times = new Map<string, number>();
  private count = 0;

  /** `synthesized`: the directory the platform was synthesized into. */
  public constructor(synthesized: string, private readonly releaseRepoUrl = 'https://github.com/acme/releases.git') {
    this.objects = ManifestSet.load(synthesized).objects.map((o) => o.obj);
    this.apps = modelApplications(this.objects);
  }

  /** Runs one promotion of a Stage; throws unless it succeeds. */
  public promote(p: ModelPromotion): PromotionResult {
    const stage = this.objects.find((o) => o.kind === 'Stage' && o.metadata?.namespace === p.project && o.metadata?.name === p.stage);
    if (!stage) throw new Error(`no Stage ${p.project}/${p.stage}`);
    const tasks = new Map(this.objects.filter((o) => o.kind === 'PromotionTask' && o.metadata?.namespace === p.project).map((o) => [`PromotionTask/${o.metadata.name}`, o]));
    const freight = SimulatedFreight.of(requestedWarehouses(stage, this.objects)[0], p.generation, p.overrides);
    freight.alias = p.alias ?? '';
    const remote = this.world.remote(this.releaseRepoUrl);
    const before = new Set(remote.commits.keys());
    const result = runPromotion({
      stage,
      steps: inflateSteps(stage, tasks),
      freight,
      env: {
        world: this.world,
        workDir: new WorkDir(),
        project: p.project,
        stage: p.stage,
        promotion: `${p.stage}.${String(++this.count).padStart(4, '0')}`,
        chartDependencies: 'any',
        applications: this.apps,
        reviewer: 'merge',
        synced: [],
        now: new Date(p.at),
      },
    });
    if (result.phase !== 'Succeeded') throw new Error(`promotion of ${p.stage} ${result.phase}: ${JSON.stringify(result.steps.filter((s) => s.error))}`);
    for (const id of remote.commits.keys()) if (!before.has(id)) this.times.set(id, Date.parse(p.at) / 1000);
    return result;
  }

  /** Writes the release repository into a bare git repository at `dir`; returns the model's commit ids → git's. */
  public write(dir: string): Map<string, string> {
    const remote = this.world.remote(this.releaseRepoUrl);
    const commits: ImportCommit[] = [...remote.commits.values()].map((c) => ({
      key: c.id, parents: c.parents, files: c.tree, message: c.message, time: this.times.get(c.id) ?? 0,
    }));
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    return fastImport(dir, commits, new Map(remote.branches));
  }
}
