import { Construct } from 'constructs';
import { StandardsRules } from './built-in-rules';
import { ControllerLoadLimits } from './controller-load-limits';
import { namesStages } from './lead-time-rule';
import { LOAD_RULE_IDS, limitProblem, loadViolations } from './load-rules';
import { IStandardsRule, RuleSeverity, StandardsViolation } from './standards-rule';
import { controllerLoadOf } from '../load/controller-load';
import { IPlatformApp, isPlannedApp } from '../plan/planned-app';
import { didYouMean } from '../util/closest';
import { field, prop } from '../util/code-hint';
import { describe, fail, ProblemList, show } from '../util/errors';
import { refuseSecretMaterial } from '../util/secret-material';

/**
 * Properties for `PlatformStandards`.
 */
export interface PlatformStandardsProps {
  /**
   * Registry hosts images may come from; turns on the `allowed-registries` rule.
   * @default - any registry
   */
  readonly allowedRegistries?: string[];
  /**
   * The largest share of a production stage's clusters one wave may hold, in percent
   * (`max-wave-percent`).
   * @default 50
   */
  readonly maxWavePercent?: number;
  /**
   * Custom rules, checked after the built-in ones.
   * @default - none
   */
  readonly rules?: IStandardsRule[];
  /**
   * Ids of built-in rules to switch off for every app.
   * @default - every built-in rule is on
   */
  readonly disabledRules?: string[];
  /**
   * Severity per rule id, overriding the rule's own.
   * @default - each rule's own severity
   */
  readonly severities?: Record<string, RuleSeverity>;
  /**
   * Caps on the load the synthesized objects put on Argo CD, Kargo and the registries; each
   * limit set turns on its rule (`max-applications-per-shard`, ...), checked over the whole platform.
   * @default - no load limits
   */
  readonly loadLimits?: ControllerLoadLimits;
}

/**
 * The platform team's rules, applied to every `PlatformApp` of the cdk8s app at synth time.
 * Synth reports every violation of every app at once, sorted, and fails when any is an error.
 * Apps may be exempt from a rule with a written justification (`PlatformAppProps.exemptions`),
 * which is recorded in their output.
 *
 * Built-in rules: `owner-contact`, `prod-verification`, `prod-gate`, `allowed-registries`
 * (when registries are given), `no-mutable-tags`, `max-wave-percent`, `cluster-scoped-resources`,
 * `name-length`.
 *
 * @example
 * new PlatformStandards(app, 'standards', { allowedRegistries: ['ghcr.io'], maxWavePercent: 25 });
 */
export class PlatformStandards extends Construct {
  private readonly _rules: IStandardsRule[] = [];
  private readonly severities: Record<string, RuleSeverity>;
  /** The ids of the built-in rules, disabled ones included. */
  private readonly builtInIds: string[];
  // cdk8s validates once per synthesized chart as well as for the app: print each warning once
  private readonly printedWarnings = new Set<string>();
  private cachedReview?: { key: string; violations: StandardsViolation[] };
  private readonly loadLimits: ControllerLoadLimits;

  constructor(scope: Construct, id: string, props: PlatformStandardsProps = {}) {
    super(scope, id);
    const subject = `PlatformStandards '${id}'`;
    refuseSecretMaterial(subject, props);
    const percent = props.maxWavePercent ?? 50;
    if (!(percent > 0 && percent <= 100)) fail(subject, prop('maxWavePercent'), percent, 'must be in (0, 100]', 'use a percentage such as 50');
    const builtIn = [
      StandardsRules.ownerContact(),
      StandardsRules.prodVerification(),
      StandardsRules.prodGate(),
      ...props.allowedRegistries ? [StandardsRules.allowedRegistries({ registries: props.allowedRegistries })] : [],
      StandardsRules.noMutableTags(),
      StandardsRules.maxWavePercent({ percent }),
      StandardsRules.clusterScopedResources(),
      StandardsRules.nameLengths(),
    ];
    this.builtInIds = builtIn.map(r => r.id);
    const disabled = props.disabledRules ?? [];
    const unknownRules = new ProblemList(subject);
    disabled.forEach((id2, i) => unknownRules.check(prop('disabledRules', i), id2, builtIn.some(r => r.id === id2) ? undefined : 'names no built-in rule',
      didYouMean(id2, builtIn.map(r => r.id))));
    unknownRules.throwIfAny();
    this.severities = { ...props.severities ?? {} };
    this.loadLimits = { ...props.loadLimits ?? {} };
    const limits = new ProblemList(subject);
    for (const [name, value] of Object.entries(this.loadLimits)) {
      limits.check(prop('loadLimits', name), value, limitProblem(value), 'use a positive whole number, or leave the limit out');
    }
    limits.throwIfAny();
    for (const r of [...builtIn.filter(b => !disabled.includes(b.id)), ...props.rules ?? []]) {
      this.addRule(r);
    }
    this.node.addValidation({ validate: () => this.validate() });
  }

  /**
   * Adds a rule, checked after the existing ones.
   */
  public addRule(rule: IStandardsRule): void {
    if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(rule.id ?? '')) {
      fail(`PlatformStandards '${this.node.id}'`, field('rule', prop('id')), rule.id, 'must be lowercase words joined by dashes', 'use e.g. "team-label-required"');
    }
    if (this._rules.some(r => r.id === rule.id)) {
      fail(`PlatformStandards '${this.node.id}'`, field('rule', prop('id')), rule.id, 'is already used', 'give every rule a unique id');
    }
    this._rules.push(rule);
  }

  /** The rules, in the order they are checked. */
  public get rules(): IStandardsRule[] {
    return [...this._rules];
  }

  /**
   * Checks every app in the cdk8s app against the rules (apps' exemptions applied), and the
   * platform against the load limits (violations with an empty `app`).
   * @returns every violation, sorted by app, rule and message
   */
  public review(): StandardsViolation[] {
    const apps = this.node.root.node.findAll().filter(isPlannedApp);
    // cdk8s validates the whole app again for every chart it writes; apps do not change meanwhile
    const key = `${this._rules.map(r => r.id).join(',')}|${apps.map(a => a.node.path).join(',')}`;
    if (this.cachedReview?.key !== key) {
      this.cachedReview = { key, violations: this.evaluate(apps) };
    }
    return [...this.cachedReview.violations];
  }

  private evaluate(apps: IPlatformApp[]): StandardsViolation[] {
    const violations: StandardsViolation[] = this.unknownNames(apps);
    if (Object.values(this.loadLimits).some(v => v !== undefined)) {
      for (const v of loadViolations(controllerLoadOf(this.node.root), this.loadLimits)) {
        violations.push({ app: '', ruleId: v.ruleId, severity: this.severities[v.ruleId] ?? RuleSeverity.ERROR, message: v.message });
      }
    }
    for (const app of apps) {
      const exempt = new Map(app.exemptions.map(e => [e.ruleId, e.justification]));
      for (const ruleId of exempt.keys()) {
        if (!this._rules.some(r => r.id === ruleId)) {
          violations.push({
            app: app.appName,
            ruleId,
            severity: RuleSeverity.ERROR,
            message: `exemption names rule ${show(ruleId)}, which these standards do not have; use one of ${this._rules.map(r => r.id).join(', ')}`,
          });
        }
      }
      for (const rule of this._rules) {
        if (exempt.has(rule.id)) continue;
        for (const message of rule.check(app)) {
          violations.push({ app: app.appName, ruleId: rule.id, severity: this.severities[rule.id] ?? rule.severity, message });
        }
      }
    }
    return violations.sort((a, b) => a.app.localeCompare(b.app) || a.ruleId.localeCompare(b.ruleId) || a.message.localeCompare(b.message));
  }

  /**
   * Options keyed by a name must name something that exists: a misspelt key silently checks
   * nothing. `severities` names rules (or load limits); a rule's stages name a stage of the
   * pipelines of the apps reviewed.
   */
  private unknownNames(apps: IPlatformApp[]): StandardsViolation[] {
    const out: StandardsViolation[] = [];
    // a disabled built-in rule is still a rule (its severity does nothing, but names something real)
    const ruleIds = [...new Set([...this.builtInIds, ...this._rules.map(r => r.id), ...LOAD_RULE_IDS])];
    for (const key of Object.keys(this.severities).filter(k => !ruleIds.includes(k))) {
      out.push({ app: '', ruleId: key, severity: RuleSeverity.ERROR, message: describe(prop('severities'), key, 'names no rule of these standards', didYouMean(key, ruleIds)) });
    }
    const stages = [...new Set(apps.flatMap(a => a.plan.stages.map(s => s.name)))].sort();
    if (stages.length === 0) return out;
    for (const rule of this._rules.filter(namesStages)) {
      for (const name of rule._stageNames.filter(n => !stages.includes(n))) {
        out.push({ app: '', ruleId: rule.id, severity: RuleSeverity.ERROR, message: describe(`${rule.id} stages`, name, 'names no stage of the apps\' pipelines', didYouMean(name, stages)) });
      }
    }
    return out;
  }

  private validate(): string[] {
    const violations = this.review();
    for (const v of violations.filter(x => x.severity === RuleSeverity.WARNING)) {
      const line = `warning: ${formatViolation(v)}`;
      if (!this.printedWarnings.has(line)) console.warn(line);
      this.printedWarnings.add(line);
    }
    return violations.filter(v => v.severity === RuleSeverity.ERROR).map(formatViolation);
  }
}

function formatViolation(v: StandardsViolation): string {
  return `standards: ${v.app === '' ? 'the platform' : `PlatformApp '${v.app}'`} breaks ${v.ruleId}: ${v.message}`;
}
