import { maxLeadTimeRule, MaxLeadTimeOptions } from './lead-time-rule';
import { IStandardsRule, RuleSeverity } from './standards-rule';
import { IPlatformApp } from '../plan/planned-app';
import { applicationsByCluster, hasOwnNamespace } from '../plan/release-plan';
import { call, field, hint, prop } from '../util/code-hint';
import { describe, show } from '../util/errors';

/** Options for `StandardsRules.allowedRegistries()`. */
export interface AllowedRegistriesOptions {
  /** Registry hosts images may come from (e.g. `ghcr.io`, `registry.acme.example`). */
  readonly registries: string[];
}

/** Options for `StandardsRules.maxWavePercent()`. */
export interface MaxWavePercentOptions {
  /** The largest share of a production stage's clusters one wave may hold, in percent. */
  readonly percent: number;
  /**
   * Apply the limit to every stage, not only production ones.
   * @default false
   */
  readonly allStages?: boolean;
}

/** Options for `StandardsRules.nameLengths()`. */
export interface NameLengthOptions {
  /**
   * The longest app name.
   * @default 32
   */
  readonly maxAppName?: number;
  /**
   * The longest generated Argo CD Application name (63 keeps label-based resource tracking possible).
   * @default 63
   */
  readonly maxApplicationName?: number;
}

const CONTACT = /^(#[\w.-]+|@[\w.-]+|[^\s@]+@[^\s@]+\.[^\s@]+|https?:\/\/\S+)$/;

/**
 * The built-in rules. Each has a stable id.
 *
 * @example
 * new PlatformStandards(app, 'standards', { rules: [StandardsRules.prodGate(), StandardsRules.nameLengths({ maxAppName: 24 })] });
 */
export class StandardsRules {
  /** `owner-contact`: an owner team and a contact that is a channel, handle, e-mail address or URL. */
  public static ownerContact(): IStandardsRule {
    return rule('owner-contact', 'every app names an owning team and a reachable contact', app => {
      const problems: string[] = [];
      if (!app.owner.team) problems.push(describe(field(prop('owner'), prop('team')), app.owner.team, 'is required', hint`set ${prop('owner', 'team')}`));
      if (!CONTACT.test(app.owner.contact ?? '')) {
        problems.push(describe(field(prop('owner'), prop('contact')), app.owner.contact, 'is not a channel (#name), handle (@name), e-mail address or URL',
          hint`set ${prop('owner', 'contact')} to where on-call can be reached`));
      }
      return problems;
    });
  }

  /** `prod-verification`: every production stage runs at least one verification check. */
  public static prodVerification(): IStandardsRule {
    return rule('prod-verification', 'production stages verify every release', app =>
      app.plan.stages.filter(s => s.production && s.verification.length === 0).map(s =>
        `production stage ${show(s.name)} has no verification; add a check with verification or stageVerification (e.g. Verification.http())`));
  }

  /** `prod-gate`: promotion into a production stage needs a person (manual or pull request). */
  public static prodGate(): IStandardsRule {
    return rule('prod-gate', 'production stages are gated by a manual approval or a pull request', app =>
      app.plan.stages.filter(s => s.production && !s.gated).map(s =>
        `production stage ${show(s.name)} promotes automatically; use Approval.manual() or Approval.pullRequest() on the pipeline stage`));
  }

  /** `allowed-registries`: images only from the given registries. */
  public static allowedRegistries(options: AllowedRegistriesOptions): IStandardsRule {
    const allowed = [...options.registries].sort();
    return rule('allowed-registries', `images come from ${allowed.join(', ')}`, app =>
      app.artifacts.filter(a => a.registry !== undefined && !allowed.includes(a.registry)).map(a =>
        `image ${a.repoUrl} comes from registry ${a.registry}, which is not allowed; mirror it to one of ${allowed.join(', ')}`));
  }

  /** `no-mutable-tags`: apps with gated stages do not follow mutable tags such as `latest`. */
  public static noMutableTags(): IStandardsRule {
    return rule('no-mutable-tags', 'gated stages never receive images by mutable tag', app => {
      const gated = app.plan.stages.filter(s => s.gated).map(s => s.name);
      if (gated.length === 0) return [];
      return app.artifacts
        .filter(a => a._type.mutableTag !== undefined)
        .map(a => `image ${a.repoUrl} follows the mutable tag ${show(a._type.mutableTag)} into gated stage(s) ${gated.join(', ')}; `
          + 'use Versioning.semver() with immutable version tags');
    });
  }

  /** `max-wave-percent`: no wave holds more than a share of a (production) stage's clusters. */
  public static maxWavePercent(options: MaxWavePercentOptions): IStandardsRule {
    return rule('max-wave-percent', `a wave holds at most ${options.percent}% of a ${options.allStages ? '' : 'production '}stage's clusters`, app => {
      const problems: string[] = [];
      for (const stage of app.plan.stages.filter(s => options.allStages || s.production)) {
        const total = stage.waves.reduce((n, w) => n + w.clusters.length, 0);
        const byWave = new Map<string, number>();
        for (const w of stage.waves) byWave.set(w.name, (byWave.get(w.name) ?? 0) + w.clusters.length);
        if (total <= 1) continue;
        for (const [wave, count] of byWave) {
          const percent = (100 * count) / total;
          if (percent > options.percent) {
            problems.push(describe(`stage ${show(stage.name)} wave ${show(wave)}`, `${count} of ${total} clusters (${Math.round(percent)}%)`, `holds more than ${options.percent}% of the clusters`,
              hint`split the stage into more waves (${call('Waves', 'byPercentage')} or more ring labels)`, String));
          }
        }
      }
      return problems;
    });
  }

  /**
   * `max-lead-time`: the least time from a new artifact to a verified release (the plan's lead
   * time: discovery, checks, soaks; approvals counted, not estimated) within limits for the
   * whole app, for production stages, or per stage.
   */
  public static maxLeadTime(options: MaxLeadTimeOptions): IStandardsRule {
    return maxLeadTimeRule(options);
  }

  /** `cluster-scoped-resources`: apps do not manage cluster-scoped resources unless they are exempt. */
  public static clusterScopedResources(): IStandardsRule {
    return rule('cluster-scoped-resources', 'apps manage only namespaced resources', app =>
      app.clusterResources.map(r => `the AppProject allows cluster-scoped ${r.kind}${r.group ? `.${r.group}` : ''}; `
        + 'move it to a platform-owned app, or record an exemption with the reason'));
  }

  /** `name-length`: app and Application names within budgets. */
  public static nameLengths(options: NameLengthOptions = {}): IStandardsRule {
    const maxApp = options.maxAppName ?? 32;
    const maxApplication = options.maxApplicationName ?? 63;
    return rule('name-length', `app names up to ${maxApp} characters, Application names up to ${maxApplication}`, app => {
      const problems: string[] = [];
      if (app.appName.length > maxApp) {
        problems.push(describe('app name', app.appName, `has ${app.appName.length} characters, more than ${maxApp}`, 'shorten it'));
      }
      const byCluster = applicationsByCluster(app.plan.stages);
      for (const c of app.plan.clusters) {
        for (const { stage: s, application: name } of byCluster.get(c) ?? []) {
          if (name.length > maxApplication) {
            const parts = hasOwnNamespace(app.plan, s) ? 'app, stage or cluster name' : 'app or cluster name';
            problems.push(describe('Application name', name, `has ${name.length} characters, more than ${maxApplication}`, `shorten the ${parts}`));
          }
        }
      }
      return problems;
    });
  }
}

function rule(id: string, description: string, check: (app: IPlatformApp) => string[]): IStandardsRule {
  return { id, description, severity: RuleSeverity.ERROR, check };
}
