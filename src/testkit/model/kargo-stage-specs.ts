import { FreightRequest } from './kargo-freight-availability';

/** The annotation the library writes with the soak a Stage asks for (`PlatformLabels.SOAK`). */
const SOAK_ANNOTATION = 'gitops-platform.io/soak';

/** What the timeline needs of one Kargo Stage object. */
export interface ModelStage {
  readonly obj: any;
  readonly name: string;
  readonly namespace: string;
  readonly requests: FreightRequest[];
  /** `Stage.IsControlFlow` (api/v1alpha1/stage_types.go): no promotion steps. */
  readonly controlFlow: boolean;
  /** The ProjectConfig enables auto-promotion for it (`pkg/api` `IsAutoPromotionEnabled`). */
  readonly autoPromote: boolean;
  /** How long its verification runs, in seconds (Infinity: never ends); 0 without verification. */
  readonly verificationSeconds: number;
  /** Whether it has `spec.verification` (without it Freight is verified once promoted). */
  readonly verifies: boolean;
  /** The soak it asks of its upstreams, as written: `requiredSoakTime` or the library's annotation. */
  readonly askedSoakSeconds?: number;
}

/** Options of the verification timing. */
export interface RunTimingOptions {
  /**
   * How long the verification of a template that is not among the objects takes
   * (`Verification.fromTemplate`: the platform installs it), in seconds.
   * @default 0
   */
  readonly externalTemplateSeconds?: number;
}

/** The Stages of the objects, with the ProjectConfig policies and AnalysisTemplates they use. */
export function modelStages(objects: any[], options: RunTimingOptions = {}): ModelStage[] {
  const auto = new Set<string>();
  for (const pc of objects.filter(o => o?.kind === 'ProjectConfig')) {
    for (const p of pc.spec?.promotionPolicies ?? []) {
      const name = p?.stageSelector?.name ?? p?.stage;
      if (p?.autoPromotionEnabled === true && typeof name === 'string') auto.add(`${pc.metadata?.namespace}/${name}`);
    }
  }
  return objects.filter(o => o?.kind === 'Stage').map(obj => {
    const namespace = String(obj.metadata?.namespace ?? '');
    const name = String(obj.metadata?.name ?? '');
    const requests: FreightRequest[] = (obj.spec?.requestedFreight ?? []).map((r: any) => ({
      warehouse: String(r?.origin?.name ?? ''),
      direct: r?.sources?.direct === true,
      stages: [...r?.sources?.stages ?? []].map(String),
      strategy: r?.sources?.availabilityStrategy,
      soakSeconds: r?.sources?.requiredSoakTime === undefined ? undefined : goDurationSeconds(r.sources.requiredSoakTime),
    }));
    const asked = obj.metadata?.annotations?.[SOAK_ANNOTATION] ?? requests.find(r => r.soakSeconds !== undefined)?.soakSeconds;
    return {
      obj,
      name,
      namespace,
      requests,
      controlFlow: (obj.spec?.promotionTemplate?.spec?.steps ?? []).length === 0,
      autoPromote: auto.has(`${namespace}/${name}`),
      verifies: obj.spec?.verification !== undefined,
      verificationSeconds: runSeconds(objects, namespace, obj.spec?.verification, options),
      askedSoakSeconds: typeof asked === 'string' ? goDurationSeconds(asked) : asked,
    };
  });
}

/**
 * How long the Stage's AnalysisRun runs: until its last metric completes (argo-rollouts
 * `analysis/analysis.go` `assessRunStatus` keeps the run Running while any metric, dry-run or
 * not, has not completed). A metric starts `initialDelay` after the run (`runMeasurements`),
 * measures `count` times `interval` apart, and without `count` measures once, or forever if it
 * has an `interval` (`Metric.EffectiveCount`); measurements themselves are taken as instant.
 */
function runSeconds(objects: any[], namespace: string, verification: any, options: RunTimingOptions): number {
  if (verification === undefined) return 0;
  let longest = 0;
  for (const ref of verification.analysisTemplates ?? []) {
    const kind = ref?.kind === 'ClusterAnalysisTemplate' ? 'ClusterAnalysisTemplate' : 'AnalysisTemplate';
    const template = objects.find(o => o?.kind === kind && o.metadata?.name === ref?.name
      && (kind === 'ClusterAnalysisTemplate' || o.metadata?.namespace === namespace));
    if (template === undefined) {
      longest = Math.max(longest, options.externalTemplateSeconds ?? 0);
      continue;
    }
    for (const m of template.spec?.metrics ?? []) {
      const delay = m?.initialDelay === undefined ? 0 : goDurationSeconds(String(m.initialDelay));
      const interval = m?.interval === undefined ? 0 : goDurationSeconds(String(m.interval));
      const count = Number(m?.count ?? 0) || (m?.interval === undefined ? 1 : Infinity);
      longest = Math.max(longest, delay + (count - 1) * interval);
    }
  }
  return longest;
}

/** A Go duration (`1h30m`, `90s`, `1.5h`, `500ms`) in seconds. */
export function goDurationSeconds(text: string): number {
  const units: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001 };
  let total = 0;
  for (const [, n, unit] of String(text).matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)) total += Number(n) * units[unit];
  return total;
}
