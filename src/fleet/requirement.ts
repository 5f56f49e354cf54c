import * as semver from 'semver';
import { Cluster } from './cluster';
import { Accelerator } from './cluster-attributes';
import { ClusterSelector } from './cluster-selector';
import { call, hint } from '../util/code-hint';
import { describe } from '../util/errors';

/**
 * A capability an application needs from a cluster. The plan places the application only on
 * clusters where all its requirements hold.
 *
 * @example
 * new PlatformApp(app, 'trainer', {
 *   owner: { team: 'ml', contact: '#ml-oncall' }, fleet, pipeline,
 *   artifacts: [Artifact.image('ghcr.io/acme/trainer')],
 *   source: ManifestSource.helm({ repoUrl: 'https://github.com/acme/deploy.git', path: 'charts/trainer' }),
 *   releaseRepo: 'https://github.com/acme/releases.git',
 *   requires: [Requirement.accelerator(Accelerator.NVIDIA_H100), Requirement.minAccelerators(8)],
 * });
 */
export class Requirement {
  /** One of these accelerator families. */
  public static accelerator(...families: Accelerator[]): Requirement {
    const names = families.map(f => f.name);
    return new Requirement(`accelerator in (${names.join(', ')})`, c => names.includes(c.accelerator.name),
      names.length === 0 ? [hint`${call('Requirement', 'accelerator')} needs at least one family, got none`] : families.flatMap(f => f._problems.map(p => `accelerator ${p}`)));
  }

  /** At least this many accelerators. */
  public static minAccelerators(count: number): Requirement {
    return new Requirement(`at least ${count} accelerators`, c => c.acceleratorCount >= count,
      Number.isInteger(count) && count >= 1 ? [] : [describe(hint`${call('Requirement', 'minAccelerators')}`, count, 'needs a whole number >= 1')]);
  }

  /**
   * At least this Kubernetes minor version (`1.30`). Clusters whose version is unknown do not
   * qualify.
   */
  public static minKubernetesVersion(version: string): Requirement {
    const valid = /^v?\d+\.\d+(\.\d+)?$/.test(version ?? '');
    const min = semver.coerce(valid ? version : '0.0')!;
    return new Requirement(`kubernetes >= ${min.major}.${min.minor}`, c => {
      const v = c.kubernetesVersion ? semver.coerce(c.kubernetesVersion) : null;
      return v !== null && (v.major > min.major || (v.major === min.major && v.minor >= min.minor));
    }, valid ? [] : [describe(hint`${call('Requirement', 'minKubernetesVersion')}`, version, 'needs a version such as "1.30"')]);
  }

  /** Labels that must satisfy a selector (e.g. `ClusterSelector.matchLabels({ 'nvlink': 'true' })`). */
  public static labels(selector: ClusterSelector): Requirement {
    return new Requirement(`labels ${selector.toString()}`, c => selector.matches(c._labels), [...selector._problems]);
  }

  private constructor(
    /** What the requirement asks for, for messages. */
    public readonly description: string,
    private readonly predicate: (cluster: Cluster) => boolean,
    /** @internal */
    public readonly _problems: string[]) {}

  /** Whether a cluster satisfies the requirement. */
  public isSatisfiedBy(cluster: Cluster): boolean {
    return this.predicate(cluster);
  }
}
