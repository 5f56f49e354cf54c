import { Duration } from 'cdk8s';
import { describe } from './errors';

/**
 * Renders a duration the way Kargo and Argo expect it (`1h30m`, `45s`), matching
 * `^([0-9]+(\.[0-9]+)?(s|m|h))+$`.
 * @internal
 */
export function toGoDuration(duration: Duration): string {
  const total = duration.toSeconds();
  if (!Number.isInteger(total) || total <= 0) {
    throw new Error(describe('duration', `${total}s`, 'must be a positive whole number of seconds'));
  }
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s ? `${s}s` : ''}`;
}
