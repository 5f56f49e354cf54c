import fc from 'fast-check';
import { ACCELERATORS, checksArb, clean, maybe, Member, randomSelector, randomSelectorAnd } from './generators';
import { AppSpec, ArtifactSpec, CredSpec, PipelineSpec, ReqSpec, SelSpec, SourceSpec, StandardsSpec } from './model';
import { GitCommitSelection, PlatformLabels } from '../../src';

// ----- apps

export const APP_NAMES = ['api', 'gateway', 'checkout', 'inference-gateway', 'search', 'billing-worker'];
export const LONG_APP_NAMES = ['a-rather-long-application-name-for-the-limits', 'an-application-name-longer-than-the-fifty-three-helm-allows'];
export const SOURCE_REPOS = ['https://github.com/acme/api.git', 'https://github.com/acme/deploy', 'https://gitlab.example.com/team/app.git/'];

export const credsArb: fc.Arbitrary<CredSpec> = fc.oneof(fc.constant({ k: 'wi' as const }), fc.constant({ k: 'managed' as const, source: 'vault:kv/kargo/github' }));

export const imageArb: fc.Arbitrary<ArtifactSpec> = fc.record({
  repo: fc.constantFrom('ghcr.io/acme/api', 'ghcr.io/acme/worker', 'nginx', 'docker.io/library/redis', 'registry.example.com:5000/team/app',
    '123456789012.dkr.ecr.us-east-1.amazonaws.com/app'),
  versioning: maybe(fc.oneof(
    {
      arbitrary: fc.record({
        k: fc.constant('semver' as const),
        range: maybe(fc.constantFrom('^1.0.0', '~1.4', '>=1.2, <2.0', '1.x', '>=1.0.0 <2.0.0 || >=3.0.0', '>= 2.0.0', '')),
        strict: maybe(fc.boolean()),
      }, { requiredKeys: ['k'] }),
      weight: 4,
    },
    { arbitrary: fc.record({ k: fc.constant('digest' as const), tag: fc.constantFrom('latest', 'stable') }), weight: 1 },
    { arbitrary: fc.constant({ k: 'lexical' as const }), weight: 1 },
    { arbitrary: fc.constant({ k: 'newest' as const }), weight: 1 },
  ), 4),
  allowTags: maybe(fc.subarray(['^v\\d+\\.\\d+\\.\\d+$', '^\\d{8}-[a-f0-9]{7}$', '^release-.*'], { minLength: 1 }), 3),
  ignoreTags: maybe(fc.constant<string[]>(['-rc\\d*$']), 4),
  platform: maybe(fc.constant('linux/amd64'), 4),
  helmValuesKey: maybe(fc.constantFrom('gateway.image', 'worker.image'), 3),
  discoveryLimit: maybe(fc.integer({ min: 1, max: 100 }), 5),
  creds: maybe(credsArb, 6),
}, { requiredKeys: ['repo'] }).map(a => clean({ k: 'image' as const, ...a }));

export const chartArb: fc.Arbitrary<ArtifactSpec> = fc.oneof(
  fc.record({
    repo: fc.constantFrom('https://charts.example.com', 'https://charts.bitnami.com/bitnami'),
    name: fc.constantFrom('redis', 'postgresql'),
    semver: maybe(fc.constantFrom('^18.0.0', '>=1.0.0')),
    dependencyName: maybe(fc.constant('cache'), 4),
    creds: maybe(credsArb, 6),
  }, { requiredKeys: ['repo', 'name'] }),
  fc.record({
    repo: fc.constantFrom('oci://ghcr.io/acme/charts/redis', 'oci://registry.example.com/charts/common'),
    semver: maybe(fc.constantFrom('^1.0.0', '~2.1')),
  }, { requiredKeys: ['repo'] }),
).map(a => clean({ k: 'chart' as const, ...a }));

export const gitArb: fc.Arbitrary<ArtifactSpec> = fc.record({
  repo: fc.constantFrom('https://github.com/acme/config.git', 'https://github.com/acme/config', ...SOURCE_REPOS),
  selection: maybe(fc.constantFrom(...Object.values(GitCommitSelection)), 2),
  branch: maybe(fc.constantFrom('main', 'release/v1'), 3),
  semver: maybe(fc.constantFrom('^1.0.0', '>=2.0.0'), 3),
  allowTags: maybe(fc.constant<string[]>(['^v\\d+']), 4),
  includePaths: maybe(fc.constantFrom<string[]>(['config/'], ['glob:*.yaml'], ['regex:^env/.*$']), 3),
  excludePaths: maybe(fc.constant<string[]>(['docs/']), 4),
  creds: maybe(credsArb, 6),
}, { requiredKeys: ['repo'] }).map(a => {
  // options only where the selection uses them
  const fromBranch = (a.selection ?? GitCommitSelection.NEWEST_FROM_BRANCH) === GitCommitSelection.NEWEST_FROM_BRANCH;
  return clean({
    k: 'git' as const,
    ...a,
    branch: fromBranch ? a.branch : undefined,
    semver: a.selection === GitCommitSelection.SEMVER ? a.semver : undefined,
    allowTags: fromBranch ? undefined : a.allowTags,
  });
});

export const sourceArb: fc.Arbitrary<SourceSpec> = fc.oneof(
  {
    arbitrary: fc.record({
      repo: fc.constantFrom(...SOURCE_REPOS),
      branch: maybe(fc.constantFrom('main', 'release/2024'), 4),
      path: fc.constantFrom('chart', 'charts/api', 'deploy/helm/gateway'),
      valuesFiles: maybe(fc.subarray(['values-{stage}.yaml', 'tiers/{tier}.yaml', 'values-prod.yaml'])),
      optionalValuesFiles: maybe(fc.constantFrom<string[]>(['clusters/{cluster}.yaml'], ['regions/{region}/{provider}.yaml', 'accelerators/{accelerator}.yaml']), 3),
      releaseName: maybe(fc.constant('gateway'), 4),
      creds: maybe(credsArb, 6),
    }, { requiredKeys: ['repo', 'path'] }).map(s => clean({ k: 'helm' as const, ...s })),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      repo: fc.constantFrom(...SOURCE_REPOS),
      branch: maybe(fc.constant('main'), 4),
      basePath: fc.constantFrom('deploy/base', 'base'),
      overlayPath: fc.constantFrom('deploy/stages/{stage}', 'deploy/overlays/{tier}/{cluster}', '{stage}'),
    }, { requiredKeys: ['repo', 'basePath', 'overlayPath'] }).map(s => clean({ k: 'kustomize' as const, ...s })),
    weight: 1,
  },
);

/** Targets and requirements that keep at least one cluster of every stage (the picked ones), or random ones. */
export function placementArb(stageMembers: Member[][]): fc.Arbitrary<{ targets?: SelSpec; requires?: ReqSpec[] }> {
  return fc.record({
    picks: fc.array(fc.nat(), { minLength: stageMembers.length, maxLength: stageMembers.length }),
    targetKind: fc.constantFrom('none', 'none', 'none', 'all', 'provider', 'accelerator', 'names', 'notin', 'none', 'provider', 'accelerator', 'names', 'notin', 'random'),
    reqKinds: fc.subarray(['k8s', 'minAcc', 'acc', 'labels', 'none', 'none', 'none', 'none', 'none', 'none', 'none', 'none', 'random'], { maxLength: 2 }),
    randomTarget: randomSelectorAnd,
    randomReq: fc.oneof(
      fc.constantFrom('1.31', '1.33').map(v => ({ k: 'k8s', v }) as ReqSpec),
      fc.integer({ min: 1, max: 100 }).map(n => ({ k: 'minAcc', n }) as ReqSpec),
      fc.subarray(ACCELERATORS, { minLength: 1 }).map(v => ({ k: 'acc', v }) as ReqSpec),
      randomSelector.map(sel => ({ k: 'labels', sel }) as ReqSpec),
    ),
  }).map(g => {
    const picked = stageMembers.map((m, i) => m[g.picks[i] % m.length].c);
    const uniq = (xs: string[]) => [...new Set(xs)].sort();
    let targets: SelSpec | undefined;
    switch (g.targetKind) {
      case 'all': targets = { k: 'all' }; break;
      case 'provider': targets = { k: 'provider', v: uniq(picked.map(c => c.provider)) }; break;
      case 'accelerator': targets = { k: 'accelerator', v: uniq(picked.map(c => c.accelerator ?? 'none')) }; break;
      case 'names': targets = { k: 'names', v: uniq(picked.map(c => c.name)) }; break;
      case 'notin': {
        const droppable = stageMembers.filter(m => m.length > 1).map(m => m.find(x => !picked.includes(x.c))!.c.name);
        targets = droppable.length > 0 ? { k: 'expr', key: PlatformLabels.CLUSTER, op: 'NotIn', values: droppable } : undefined;
        break;
      }
      case 'random': targets = g.randomTarget; break;
    }
    const requires: ReqSpec[] = [];
    for (const kind of g.reqKinds) {
      switch (kind) {
        case 'k8s': {
          const versions = picked.map(c => c.kubernetesVersion && /^v?(\d+)\.(\d+)/.exec(c.kubernetesVersion));
          if (versions.every(v => v)) requires.push({ k: 'k8s', v: `1.${Math.min(...versions.map(v => Number(v![2])))}` });
          break;
        }
        case 'minAcc': {
          const n = Math.min(...picked.map(c => c.acceleratorCount ?? 0));
          if (n >= 1) requires.push({ k: 'minAcc', n });
          break;
        }
        case 'acc': requires.push({ k: 'acc', v: uniq(picked.map(c => c.accelerator ?? 'none')) }); break;
        case 'labels': requires.push({ k: 'labels', sel: { k: 'region', v: uniq(picked.map(c => c.region)) } }); break;
        case 'random': requires.push(g.randomReq); break;
      }
    }
    return clean({ targets, requires: requires.length > 0 ? requires : undefined });
  });
}

export function appArb(id: string, pipelines: { pipeline: PipelineSpec; members: Member[][] }[]): fc.Arbitrary<AppSpec> {
  return fc.nat({ max: pipelines.length - 1 }).chain(p => fc.record({
    appName: maybe(fc.constant(`${id}-app`), 12),
    owner: fc.record({
      team: fc.constantFrom('payments', 'inference', 'search'),
      contact: fc.constantFrom('#payments-oncall', 'team@example.com', 'https://oncall.example.com/team'),
      groups: maybe(fc.constantFrom<string[]>(['payments-admins'], ['payments-admins', 'sre']), 3),
    }, { requiredKeys: ['team', 'contact'] }),
    artifacts: fc.uniqueArray(fc.oneof({ arbitrary: imageArb, weight: 4 }, { arbitrary: chartArb, weight: 1 }, { arbitrary: gitArb, weight: 1 }),
      { minLength: 1, maxLength: 4, selector: a => `${a.k}:${a.repo.replace(/\/+$/, '')}#${a.k === 'chart' ? a.name : ''}` }),
    source: sourceArb,
    releaseRepo: fc.constantFrom('https://github.com/acme/releases.git', 'https://github.com/acme/releases', 'https://github.com/acme/api.git',
      'https://github.com/acme/api', 'https://github.com/acme/deploy.git', 'https://gitlab.example.com/team/app.git'),
    releaseCreds: maybe(credsArb, 4),
    // the release repository is sometimes the source repository, spelled another way
    respell: fc.integer({ min: 0, max: 11 }),
    placement: placementArb(pipelines[p].members),
    namespace: maybe(fc.constantFrom('apps', 'payments'), 5),
    checks: maybe(checksArb(3, ''), 3),
    stageChecks: maybe(fc.constantFrom(...pipelines[p].pipeline.stages.filter(s => s.sel !== undefined).map(s => s.name)).chain(stage =>
      checksArb(2, '-extra').map(list => ({ [stage]: list }))), 4),
    exemptions: maybe(fc.constant<{ ruleId: string; justification: string }[]>([{ ruleId: 'prod-verification', justification: 'agreed with the platform team in RFC-12' }]), 5),
    clusterResources: maybe(fc.constant<{ group: string; kind: string }[]>([{ group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition' }]), 8),
  }, { requiredKeys: ['owner', 'artifacts', 'source', 'releaseRepo', 'placement', 'respell'] })
    .map(({ placement, respell, ...a }) => {
      const repo = a.source.repo.replace(/\/+$/, '');
      const releaseRepo: string = respell < 3
        ? [repo.endsWith('.git') ? repo.slice(0, -4) : `${repo}.git`, `${repo}/`, repo.replace('acme', 'Acme')][respell]
        : a.releaseRepo;
      // a git artifact for the source repository follows the source's branch
      const sourceRepo = a.source.repo.replace(/\/+$/, '');
      let artifacts = a.artifacts.map(x => x.k === 'git' && x.repo.replace(/\/+$/, '') === sourceRepo
        && (x.selection ?? GitCommitSelection.NEWEST_FROM_BRANCH) === GitCommitSelection.NEWEST_FROM_BRANCH
        ? { ...x, branch: a.source.branch ?? 'main' } : x);
      // a chart reaches a release only as a dependency of a Helm source
      if (a.source.k !== 'helm') artifacts = artifacts.filter(x => x.k !== 'chart');
      // an app whose only artifacts were charts keeps one artifact: its image
      if (artifacts.length === 0) artifacts = [{ k: 'image', repo: 'ghcr.io/acme/api' }];
      // any other git repository is read where the render looks: inside the chart, or next to the kustomize base
      const readDir = a.source.k === 'helm' ? a.source.path : a.source.basePath;
      artifacts = artifacts.map((x, i) => x.k === 'git' && x.repo.replace(/\/+$/, '') !== sourceRepo ? { ...x, checkoutPath: `${readDir}/config-${i}` } : x);
      // one way to authenticate per app, so a repository used twice gets the same credentials
      const creds = [...artifacts.map(x => x.creds), a.source.k === 'helm' ? a.source.creds : undefined, a.releaseCreds].find(c => c !== undefined);
      artifacts = artifacts.map(x => x.creds ? { ...x, creds } : x);
      const source = a.source.k === 'helm' && a.source.creds ? { ...a.source, creds } : a.source;
      return clean({ id, pipeline: p, ...a, artifacts, source, releaseRepo, releaseCreds: a.releaseCreds && creds, ...placement });
    }));
}

export const standardsArb: fc.Arbitrary<StandardsSpec | undefined> = maybe(fc.record({
  maxWavePercent: maybe(fc.constantFrom(50, 100)),
  disabledRules: maybe(fc.subarray(['prod-verification', 'prod-gate', 'max-wave-percent', 'name-length'])),
  warnings: fc.integer({ min: 0, max: 3 }).map(n => n > 0),
  allowedRegistries: maybe(fc.constant<string[]>(['ghcr.io', 'docker.io', 'registry.example.com:5000', '123456789012.dkr.ecr.us-east-1.amazonaws.com'])),
}, { requiredKeys: ['warnings'] }).map(clean), 6);
