import { checkArtifactsReachRender } from './artifact-reach';
import { AppOwner } from './owner';
import { StandardsExemption } from './planned-app';
import { PlatformAppProps } from './platform-app-props';
import { ArgoCdCredentials } from '../artifact/argocd-credentials';
import { gitUrlProblem } from '../artifact/git-artifact';
import { sourceArtifact, warehouseArtifacts } from '../artifact/manifest-source';
import { call, field, hint, prop, shorthand, str } from '../util/code-hint';
import { duplicates } from '../util/collections';
import { describe, ProblemList, reportValue, show } from '../util/errors';
import { dns1123LabelProblem, labelValueProblem } from '../util/names';

/** Namespaces of the hub that a Kargo Project (whose namespace is the app's name) must not claim. */
const RESERVED_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease', 'argocd', 'kargo', 'kargo-system-resources',
  'kargo-shared-resources', 'argo-rollouts'];

/** The release repository as the output spells it. @internal */
export function releaseRepoOf(props: PlatformAppProps): string {
  return `${props.releaseRepo ?? ''}`.replace(/\/+$/, '');
}

/**
 * Checks the props of a PlatformApp that need nothing resolved: its identity, inputs,
 * subscriptions, exemptions and cluster resources. Problems go to `problems`.
 * @internal
 */
export function checkAppProps(problems: ProblemList, appName: string, props: PlatformAppProps): void {
  checkIdentity(problems, appName, props);
  checkInputs(problems, appName, props);
  checkSubscriptions(problems, props);
  checkArtifactsReachRender(problems, props);
  checkExemptions(problems, props.exemptions ?? []);
  reportValue(problems, prop('releaseRepoCredentials'), props.releaseRepoCredentials);
  reportValue(problems, prop('releaseRepoArgoCdCredentials'), props.releaseRepoArgoCdCredentials);
  const argoCd = props.releaseRepoArgoCdCredentials;
  if (argoCd instanceof ArgoCdCredentials && typeof props.releaseRepo === 'string') {
    problems.check(prop('releaseRepoArgoCdCredentials'), argoCd.kind, argoCd._repositoryProblem(releaseRepoOf(props)),
      hint`use ${call('ArgoCdCredentials', 'managedSecret')} for a repository on another host, or set ${prop('enterpriseBaseUrl')} to its GitHub Enterprise API`);
  }
  for (const [i, r] of (props.clusterResources ?? []).entries()) {
    problems.check(prop('clusterResources', i, 'kind'), r.kind, /^[A-Z][A-Za-z0-9]*$/.test(r.kind ?? '') ? undefined : 'must be a Kubernetes kind in PascalCase',
      'use e.g. "CustomResourceDefinition"');
    problems.check(prop('clusterResources', i, 'group'), r.group, r.group === '' || /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(r.group ?? '') ? undefined : 'must be an API group (empty for core)',
      'use e.g. "apiextensions.k8s.io", or "" for the core group');
  }
}

function checkIdentity(problems: ProblemList, appName: string, props: PlatformAppProps) {
  problems.check(prop('appName'), appName, dns1123LabelProblem(appName),
    'use a short lowercase DNS-1123 label: it becomes the Kargo Project namespace');
  if (RESERVED_NAMESPACES.includes(appName) || appName === props.fleet?.argoCdNamespace) {
    problems.add(describe(prop('appName'), appName, 'is the name of a system namespace, which the app\'s Kargo Project would take over', 'choose another name'));
  }
  if (props.namespace !== undefined) {
    problems.check(prop('namespace'), props.namespace, dns1123LabelProblem(props.namespace), 'use a DNS-1123 label');
  }
  checkOwner(problems, props.owner);
  problems.check(prop('releaseRepo'), props.releaseRepo, gitUrlProblem(props.releaseRepo ?? '', props.releaseRepoAllowInsecureHttp, 'releaseRepoAllowInsecureHttp'),
    'use the https:// clone URL of the release repository');
}

function checkInputs(problems: ProblemList, appName: string, props: PlatformAppProps) {
  (props.artifacts ?? []).forEach((a, i) => reportValue(problems, field(prop('artifacts', i), `(${a.kind} ${a.repoUrl})`), a));
  reportValue(problems, prop('source'), props.source);
  props.source?._type.checkAppName(problems, appName);
  reportValue(problems, prop('targets'), props.targets);
  (props.requires ?? []).forEach((r, i) => reportValue(problems, prop('requires', i), r));
  if (!props.source) problems.add(describe(prop('source'), undefined, 'is required', hint`use ${call('ManifestSource', 'helm')} or ${call('ManifestSource', 'kustomize')}`));
  if (!props.artifacts || props.artifacts.length === 0) {
    problems.add(describe(prop('artifacts'), props.artifacts, 'must list at least one artifact', hint`add e.g. ${call('Artifact', 'image', str('ghcr.io/acme/app'))}`));
  }
}

/** The Warehouse subscribes to every artifact, and to the source unless a git artifact names it. */
function checkSubscriptions(problems: ProblemList, props: PlatformAppProps) {
  const explicitSource = props.source ? sourceArtifact(props.source, props.artifacts ?? []) : undefined;
  const subscriptions = props.source ? warehouseArtifacts(props.source, props.artifacts ?? []) : (props.artifacts ?? []).map(a => a._type);
  const identities = subscriptions.map(s => s.subscriptionIdentity);
  const repos = duplicates(identities).flatMap(dup => [...new Set(subscriptions.filter((_, i) => identities[i] === dup).map(s => `${s.kind}:${s.repoUrl}`))]);
  problems.check(prop('artifacts'), repos, repos.length > 0 ? 'must not subscribe to the same repository twice' : undefined,
    'Kargo rejects duplicate subscriptions and compares URLs without case, trailing slashes and .git: declare each repository once, spelled one way');
  const explicitBranch = explicitSource?._type.branch;
  if (explicitBranch !== undefined && explicitBranch !== props.source.branch) {
    problems.add(describe('the git artifact for the source repository', explicitBranch, `follows another branch than the source (${show(props.source.branch)})`,
      'make them agree'));
  }
}

function checkExemptions(problems: ProblemList, exemptions: StandardsExemption[]) {
  exemptions.forEach((e, i) => {
    problems.check(prop('exemptions', i, 'ruleId'), e.ruleId, /^[a-z0-9]+(-[a-z0-9]+)*$/.test(e.ruleId ?? '') ? undefined : 'must be a rule id',
      'use the id of a standards rule, e.g. "prod-gate"');
    problems.check(prop('exemptions', i, 'justification'), e.justification, (e.justification ?? '').trim().length >= 10 ? undefined
      : 'must explain in a sentence why the app may break the rule', 'say why, and who agreed');
  });
  const dup = duplicates(exemptions.map(e => e.ruleId));
  if (dup.length > 0) problems.add(describe(prop('exemptions'), dup, 'name rule(s) more than once', 'give one justification per rule'));
}

function checkOwner(problems: ProblemList, owner: AppOwner | undefined) {
  if (!owner) {
    problems.add(describe(prop('owner'), undefined, 'is required', hint`set ${shorthand('AppOwner', 'team', 'contact')}`));
    return;
  }
  problems.check(prop('owner', 'team'), owner.team, owner.team ? labelValueProblem(owner.team) : 'must not be empty', 'use the team\'s short name');
  problems.check(prop('owner', 'contact'), owner.contact, owner.contact && owner.contact.trim() ? undefined : 'must not be empty',
    'name a channel, address or rota where the team can be reached');
  for (const g of owner.groups ?? []) {
    problems.check(prop('owner', 'groups'), g, g.trim() === '' || /[,\s]/.test(g) ? 'must be OIDC group names without spaces or commas' : undefined,
      'give one group per entry, as your identity provider names it');
  }
}
