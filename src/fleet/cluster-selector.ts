import { Accelerator, CloudProvider, providerProblem, Tier } from './cluster-attributes';
import { PlatformLabels } from '../contracts/labels';
import { call, hint } from '../util/code-hint';
import { describe, show } from '../util/errors';
import { labelKeyProblem, labelValueProblem } from '../util/names';

/**
 * Operators of a label selector requirement, as in Kubernetes.
 */
export enum SelectorOperator {
  /** The label's value is one of the values. */
  IN = 'In',
  /** The label is absent, or its value is none of the values. */
  NOT_IN = 'NotIn',
  /** The label is present, whatever its value. */
  EXISTS = 'Exists',
  /** The label is absent. */
  DOES_NOT_EXIST = 'DoesNotExist',
}

/**
 * One requirement of a label selector.
 */
export interface SelectorRequirement {
  /** The label key. */
  readonly key: string;
  /** How the label is compared. */
  readonly operator: SelectorOperator;
  /**
   * The values to compare with: non-empty for `In`/`NotIn`, empty for `Exists`/`DoesNotExist`.
   * @default []
   */
  readonly values?: string[];
}

/**
 * A label selector in Kubernetes form.
 */
export interface LabelSelectorConfig {
  /**
   * Labels that must all be present with exactly these values.
   * @default - none
   */
  readonly matchLabels?: Record<string, string>;
  /**
   * Requirements that must all hold.
   * @default - none
   */
  readonly matchExpressions?: SelectorRequirement[];
}

/**
 * Selects clusters of a fleet by their labels, with the semantics of a Kubernetes label selector:
 * every `matchLabels` entry and every requirement must hold (logical AND); an empty selector
 * matches every cluster.
 *
 * Clusters carry their attributes as labels (see `PlatformLabels`) plus their extra labels.
 *
 * @example
 * ClusterSelector.tier(Tier.PROD).and(ClusterSelector.accelerator(Accelerator.NVIDIA_H100, Accelerator.NVIDIA_H200))
 */
export class ClusterSelector {
  /** Every cluster of the fleet. */
  public static all(): ClusterSelector {
    return new ClusterSelector({}, [], []);
  }

  /** Clusters of any of the given tiers. */
  public static tier(...tiers: Tier[]): ClusterSelector {
    return ClusterSelector.in(PlatformLabels.TIER, tiers.map(t => t.name), 'tier');
  }

  /** Clusters of any of the given providers. */
  public static provider(...providers: CloudProvider[]): ClusterSelector {
    const selector = ClusterSelector.in(PlatformLabels.PROVIDER, providers.map(p => `${p}`), 'provider');
    const problems = providers.flatMap(p => {
      const bad = providerProblem(p);
      return bad ? [describe('provider', p, bad.problem, bad.fix)] : [];
    });
    return problems.length > 0 ? new ClusterSelector(selector._matchLabels, selector._expressions, [...selector._problems, ...problems]) : selector;
  }

  /** Clusters in any of the given regions. */
  public static region(...regions: string[]): ClusterSelector {
    return ClusterSelector.in(PlatformLabels.REGION, regions, 'region');
  }

  /** Clusters with any of the given accelerator families (`Accelerator.NONE` for CPU-only). */
  public static accelerator(...families: Accelerator[]): ClusterSelector {
    const selector = ClusterSelector.in(PlatformLabels.ACCELERATOR, families.map(a => a.name), 'accelerator');
    const problems = families.flatMap(a => a._problems.map(p => `accelerator ${p}`));
    return problems.length > 0 ? new ClusterSelector(selector._matchLabels, selector._expressions, [...selector._problems, ...problems]) : selector;
  }

  /** Exactly the named clusters. */
  public static names(...names: string[]): ClusterSelector {
    return ClusterSelector.in(PlatformLabels.CLUSTER, names, 'names');
  }

  /** Clusters carrying all of these labels with these values. */
  public static matchLabels(labels: Record<string, string>): ClusterSelector {
    return ClusterSelector.fromLabelSelector({ matchLabels: labels });
  }

  /** Clusters whose labels satisfy one requirement. */
  public static expression(key: string, operator: SelectorOperator, values?: string[]): ClusterSelector {
    return ClusterSelector.fromLabelSelector({ matchExpressions: [{ key, operator, values }] });
  }

  /**
   * A selector in Kubernetes form; it is validated like the API server validates one.
   */
  public static fromLabelSelector(selector: LabelSelectorConfig): ClusterSelector {
    const problems: string[] = [];
    const matchLabels = { ...selector.matchLabels ?? {} };
    for (const [key, value] of Object.entries(matchLabels)) {
      checkKey(problems, key);
      const problem = labelValueProblem(`${value}`);
      if (problem) problems.push(describe(`selector value for ${show(key)}`, value, problem, 'use a Kubernetes label value'));
    }
    const expressions = (selector.matchExpressions ?? []).map(r => normalizeRequirement(problems, r));
    return new ClusterSelector(matchLabels, expressions, problems);
  }

  private static in(key: string, values: string[], what: string): ClusterSelector {
    if (values.length === 0) {
      return new ClusterSelector({}, [], [hint`${call('ClusterSelector', what)} needs at least one value, got none`]);
    }
    return ClusterSelector.fromLabelSelector({ matchExpressions: [{ key, operator: SelectorOperator.IN, values }] });
  }

  private constructor(
    private readonly _matchLabels: Record<string, string>,
    private readonly _expressions: Required<SelectorRequirement>[],
    /** @internal */
    public readonly _problems: string[]) {}

  /**
   * A selector that matches the clusters both this and `other` match.
   */
  public and(other: ClusterSelector): ClusterSelector {
    const matchLabels = { ...this._matchLabels };
    const expressions = [...this._expressions];
    for (const [key, value] of Object.entries(other._matchLabels)) {
      if (key in matchLabels && matchLabels[key] !== value) {
        // both can never hold; keep both so the selector matches nothing, like Kubernetes would
        expressions.push({ key, operator: SelectorOperator.IN, values: [value] });
      } else {
        matchLabels[key] = value;
      }
    }
    expressions.push(...other._expressions);
    return new ClusterSelector(matchLabels, expressions, [...this._problems, ...other._problems]);
  }

  /**
   * The cluster names the selector requires by name (`names()`, or an `In`/label on the cluster
   * label): each must be a cluster of the fleet, or the selector silently selects fewer.
   * @internal
   */
  public _namedClusters(): string[] {
    return [
      ...Object.entries(this._matchLabels).filter(([k]) => k === PlatformLabels.CLUSTER).map(([, v]) => v),
      ...this._expressions.filter(r => r.key === PlatformLabels.CLUSTER && r.operator === SelectorOperator.IN).flatMap(r => r.values),
    ];
  }

  /**
   * Whether a set of labels satisfies this selector.
   */
  public matches(labels: Record<string, string>): boolean {
    for (const [key, value] of Object.entries(this._matchLabels)) {
      if (!Object.prototype.hasOwnProperty.call(labels, key) || labels[key] !== value) return false;
    }
    for (const r of this._expressions) {
      const has = Object.prototype.hasOwnProperty.call(labels, r.key);
      switch (r.operator) {
        case SelectorOperator.IN:
          if (!has || !r.values.includes(labels[r.key])) return false;
          break;
        case SelectorOperator.NOT_IN:
          if (has && r.values.includes(labels[r.key])) return false;
          break;
        case SelectorOperator.EXISTS:
          if (!has) return false;
          break;
        case SelectorOperator.DOES_NOT_EXIST:
          if (has) return false;
          break;
      }
    }
    return true;
  }

  /**
   * The selector in Kubernetes form.
   */
  public toLabelSelector(): LabelSelectorConfig {
    const matchLabels = Object.keys(this._matchLabels).length > 0 ? { ...this._matchLabels } : undefined;
    const matchExpressions = this._expressions.length > 0
      ? this._expressions.map(r => ({ key: r.key, operator: r.operator, values: r.values.length > 0 ? [...r.values] : undefined }))
      : undefined;
    return { matchLabels, matchExpressions };
  }

  /**
   * The selector in `kubectl -l` syntax, for messages (`tier in (prod),!legacy`).
   */
  public toString(): string {
    const parts: string[] = [];
    for (const [key, value] of Object.entries(this._matchLabels)) parts.push(`${key}=${value}`);
    for (const r of this._expressions) {
      switch (r.operator) {
        case SelectorOperator.IN: parts.push(`${r.key} in (${r.values.join(',')})`); break;
        case SelectorOperator.NOT_IN: parts.push(`${r.key} notin (${r.values.join(',')})`); break;
        case SelectorOperator.EXISTS: parts.push(r.key); break;
        case SelectorOperator.DOES_NOT_EXIST: parts.push(`!${r.key}`); break;
      }
    }
    return parts.length === 0 ? '<all clusters>' : parts.join(',');
  }
}

function checkKey(problems: string[], key: string) {
  const problem = labelKeyProblem(key);
  if (problem) problems.push(describe('selector key', key, problem, 'use a Kubernetes label key such as "gitops-platform.io/tier"'));
}

function normalizeRequirement(problems: string[], r: SelectorRequirement): Required<SelectorRequirement> {
  checkKey(problems, r.key);
  const values = [...r.values ?? []];
  const known = Object.values(SelectorOperator) as string[];
  if (!known.includes(r.operator)) {
    problems.push(describe(`selector operator for key ${show(r.key)}`, r.operator, 'is not a selector operator', `use one of ${known.join(', ')}`));
  }
  if ((r.operator === SelectorOperator.IN || r.operator === SelectorOperator.NOT_IN) && values.length === 0) {
    problems.push(describe(`selector requirement ${show(`${r.key} ${r.operator}`)}`, values, 'needs at least one value', 'use Exists or DoesNotExist to test presence'));
  }
  if ((r.operator === SelectorOperator.EXISTS || r.operator === SelectorOperator.DOES_NOT_EXIST) && values.length > 0) {
    problems.push(describe(`selector requirement ${show(`${r.key} ${r.operator}`)}`, values, 'must not have values', 'use In or NotIn to compare values'));
  }
  for (const v of values) {
    const problem = labelValueProblem(`${v}`);
    if (problem) problems.push(describe(`selector value for ${show(r.key)}`, v, problem, 'use a Kubernetes label value'));
  }
  return { key: r.key, operator: r.operator, values };
}
