import { appProps, errorOf, world } from './fixtures';
import { PlatformApp, PlatformAppProps } from '../../src';

export function appError(overrides: Partial<PlatformAppProps>): string {
  const w = world();
  return errorOf(() => new PlatformApp(w.app, 'api', appProps(w, overrides)));
}
