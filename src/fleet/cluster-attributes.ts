import { didYouMean } from '../util/closest';
import { call, hint, json } from '../util/code-hint';
import { describe } from '../util/errors';
import { labelValueProblem } from '../util/names';

/**
 * Where a cluster runs. A closed set: placement and credentials depend on it.
 */
export enum CloudProvider {
  /** Amazon Web Services (EKS). */
  AWS = 'aws',
  /** Google Cloud (GKE). */
  GCP = 'gcp',
  /** Microsoft Azure (AKS). */
  AZURE = 'azure',
  /** Oracle Cloud Infrastructure (OKE). */
  OCI = 'oci',
  /** A cluster in the organisation's own data centre. */
  ON_PREM = 'on-prem',
}

/**
 * The accelerator family a cluster offers to workloads.
 *
 * The common families are predefined; `Accelerator.custom()` declares any other, so that a
 * misspelt family (`Accelerator.of('nvidia-h10O')`) fails instead of becoming a new one.
 *
 * @example
 * ClusterSelector.accelerator(Accelerator.NVIDIA_H100, Accelerator.custom('nvidia-b200'));
 */
export class Accelerator {
  /** CPU only: no accelerator. */
  public static readonly NONE = new Accelerator('none', []);
  /** NVIDIA H100. */
  public static readonly NVIDIA_H100 = new Accelerator('nvidia-h100', []);
  /** NVIDIA H200. */
  public static readonly NVIDIA_H200 = new Accelerator('nvidia-h200', []);
  /** NVIDIA GB200 (Grace Blackwell). */
  public static readonly NVIDIA_GB200 = new Accelerator('nvidia-gb200', []);
  /** AMD Instinct MI300X. */
  public static readonly AMD_MI300X = new Accelerator('amd-mi300x', []);
  /** Google Cloud TPU. */
  public static readonly GOOGLE_TPU = new Accelerator('google-tpu', []);
  /** AWS Trainium. */
  public static readonly AWS_TRAINIUM = new Accelerator('aws-trainium', []);

  /**
   * A predefined accelerator family by name (e.g. read from configuration). A name that is not
   * predefined is a mistake, reported with the closest predefined one: declare a family of your
   * own with `Accelerator.custom()`.
   */
  public static of(name: string): Accelerator {
    const known = Accelerator.all().find(a => a.name === name);
    if (known) return known;
    return new Accelerator(`${name}`, [describe('name', name, 'is not a known accelerator family',
      `${didYouMean(name, Accelerator.all().map(a => a.name))} ` + hint`(to add a family, declare it with ${call('Accelerator', 'custom', json(name))})`)]);
  }

  /**
   * Declares an accelerator family that is not predefined, e.g. `nvidia-b200`; the name becomes
   * a label value.
   */
  public static custom(name: string): Accelerator {
    const known = Accelerator.all().find(a => a.name === name);
    if (known) return known;
    const problem = labelValueProblem(`${name}`) ?? (!name ? 'must not be empty' : undefined);
    return new Accelerator(name, problem ? [describe('accelerator name', name, problem, 'use a label-safe name such as "nvidia-b200"')] : []);
  }

  /** The predefined families. */
  public static all(): Accelerator[] {
    return [Accelerator.NONE, Accelerator.NVIDIA_H100, Accelerator.NVIDIA_H200, Accelerator.NVIDIA_GB200,
      Accelerator.AMD_MI300X, Accelerator.GOOGLE_TPU, Accelerator.AWS_TRAINIUM];
  }

  private constructor(
    /** The family name, as written in labels. */
    public readonly name: string,
    /** @internal */
    public readonly _problems: string[]) {}

  /** True unless this is `Accelerator.NONE`. */
  public get isAccelerated(): boolean {
    return this.name !== Accelerator.NONE.name;
  }
}

/**
 * Why `provider` is not a `CloudProvider`, with the closest one, or undefined.
 * @internal
 */
export function providerProblem(provider: unknown): { problem: string; fix: string } | undefined {
  const known = Object.values(CloudProvider) as string[];
  if (known.includes(provider as string)) return undefined;
  return { problem: 'is not a known provider', fix: typeof provider === 'string' ? didYouMean(provider, known) : `use one of ${known.join(', ')}` };
}

/**
 * The environment tier of a cluster.
 *
 * dev, staging and prod are predefined; `Tier.of()` names any other.
 *
 * @example
 * const perf = Tier.of('perf', false);
 * pipeline.addStage({ name: 'perf', clusters: ClusterSelector.tier(perf) });
 */
export class Tier {
  /** Development clusters. */
  public static readonly DEV = new Tier('dev', false, []);
  /** Pre-production clusters. */
  public static readonly STAGING = new Tier('staging', false, []);
  /** Production clusters. */
  public static readonly PROD = new Tier('prod', true, []);

  /**
   * A tier by name.
   * @param name label-safe tier name
   * @param production whether clusters of this tier serve production traffic
   */
  public static of(name: string, production: boolean = false): Tier {
    const known = [Tier.DEV, Tier.STAGING, Tier.PROD].find(t => t.name === name);
    if (known) return known;
    const problem = labelValueProblem(`${name}`) ?? (!name ? 'must not be empty' : undefined);
    return new Tier(name, production, problem ? [describe('tier name', name, problem, 'use a label-safe name such as "qa"')] : []);
  }

  private constructor(
    /** The tier name, as written in labels. */
    public readonly name: string,
    /** Whether clusters of this tier serve production traffic. */
    public readonly production: boolean,
    /** @internal */
    public readonly _problems: string[]) {}
}
