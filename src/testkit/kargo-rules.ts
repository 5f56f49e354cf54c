import { Finding, show } from './finding';
import { joinPointer } from './json-pointer';
import { isPlainObject } from './object-meta';

const SELECTOR_PREFIXES = ['glob', 'regex', 'regexp'];

/** Kargo admission-webhook rules that need only the object itself. */
export function validateKargoRules(obj: Record<string, any>): Finding[] {
  switch (obj.kind) {
    case 'ProjectConfig':
      return [...checkProjectConfigName(obj), ...checkPromotionPolicies(obj.spec?.promotionPolicies)];
    case 'ClusterConfig':
      return obj.metadata?.name === 'cluster' || obj.metadata?.name === undefined
        ? []
        : [{ path: '/metadata/name', message: `clusterconfig name must be "cluster", got ${show(obj.metadata.name)}` }];
    case 'Stage':
      return checkRequestedFreight(obj.spec?.requestedFreight);
    default:
      return [];
  }
}

function checkProjectConfigName(obj: Record<string, any>): Finding[] {
  const { name, namespace } = obj.metadata ?? {};
  if (name === undefined || namespace === undefined || name === namespace) {
    return [];
  }
  return [{ path: '/metadata/name', message: `projectconfig name ${show(name)} must equal its namespace (the project) ${show(namespace)}` }];
}

function checkPromotionPolicies(policies: unknown): Finding[] {
  if (!Array.isArray(policies)) {
    return [];
  }
  const findings: Finding[] = [];
  const exactNames = new Map<string, number>();
  policies.forEach((policy, index) => {
    if (!isPlainObject(policy)) {
      return;
    }
    const fromSelector = isPlainObject(policy.stageSelector) && typeof policy.stageSelector.name === 'string';
    const name: unknown = fromSelector ? policy.stageSelector.name : policy.stage;
    if (typeof name !== 'string' || name === '') {
      return;
    }
    const at = fromSelector ? `/spec/promotionPolicies/${index}/stageSelector/name` : `/spec/promotionPolicies/${index}/stage`;
    const prefix = /^([^:]+):/.exec(name)?.[1];
    if (prefix !== undefined) {
      if (!SELECTOR_PREFIXES.includes(prefix)) {
        findings.push({ path: at, message: `unknown stage selector prefix "${prefix}:" in ${show(name)} (use glob:, regex: or regexp:)` });
      }
      return;
    }
    const first = exactNames.get(name);
    if (first !== undefined) {
      findings.push({ path: at, message: `stage ${show(name)} already has a promotion policy at /spec/promotionPolicies/${first}` });
    } else {
      exactNames.set(name, index);
    }
  });
  return findings;
}

function checkRequestedFreight(requests: unknown): Finding[] {
  if (!Array.isArray(requests)) {
    return [];
  }
  const findings: Finding[] = [];
  const origins = new Map<string, number>();
  requests.forEach((request, index) => {
    if (!isPlainObject(request)) {
      return;
    }
    const at = `/spec/requestedFreight/${index}`;
    if (isPlainObject(request.origin)) {
      const key = `${request.origin.kind}/${request.origin.name}`;
      const first = origins.get(key);
      if (first !== undefined) {
        findings.push({ path: joinPointer(at, 'origin'), message: `origin ${key} is already requested at /spec/requestedFreight/${first}` });
      } else {
        origins.set(key, index);
      }
    }
    const sources = request.sources;
    if (isPlainObject(sources) && sources.autoPromotionOptions?.selectionPolicy === 'MatchUpstream') {
      const stages = Array.isArray(sources.stages) ? sources.stages : [];
      if (sources.direct === true || stages.length !== 1) {
        findings.push({
          path: joinPointer(at, 'sources', 'autoPromotionOptions', 'selectionPolicy'),
          message: `selectionPolicy MatchUpstream needs exactly one upstream stage and no direct source, got stages ${show(stages)}${sources.direct === true ? ' and direct: true' : ''}`,
        });
      }
    }
  });
  return findings;
}
