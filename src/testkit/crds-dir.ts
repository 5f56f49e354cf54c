import * as fs from 'fs';
import * as path from 'path';

export const CRDS_DIR_ENV = 'CDK8S_GITOPS_PLATFORM_CRDS';

/**
 * Finds the pinned CRDs directory: the explicit option, then $CDK8S_GITOPS_PLATFORM_CRDS, then the
 * first `<dir>/../shared/crds` or `<dir>/shared/crds` walking up from the working directory
 * (the project lives next to `shared/`, but tests may run from a subdirectory).
 */
export function resolveCrdsDir(explicit?: string): string {
  const looked: string[] = [];
  if (explicit !== undefined) {
    return requireCrdsDir(path.resolve(explicit), 'the crdsDir option');
  }
  const fromEnv = process.env[CRDS_DIR_ENV];
  if (fromEnv) {
    return requireCrdsDir(path.resolve(fromEnv), `$${CRDS_DIR_ENV}`);
  }
  let dir = path.resolve(process.cwd());
  for (;;) {
    for (const candidate of [path.join(dir, '..', 'shared', 'crds'), path.join(dir, 'shared', 'crds')]) {
      const resolved = path.resolve(candidate);
      if (!looked.includes(resolved)) {
        looked.push(resolved);
      }
      if (isCrdsDir(resolved)) {
        return resolved;
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) {
      break;
    }
    dir = parent;
  }
  throw new Error(
    `cannot find the pinned crds directory: $${CRDS_DIR_ENV} is not set and none of these exist: ${looked.join(', ')}. `
    + `set $${CRDS_DIR_ENV} or pass { crdsDir: '<path to shared/crds>' } to ManifestValidator.load()`,
  );
}

function requireCrdsDir(dir: string, origin: string): string {
  if (!isCrdsDir(dir)) {
    throw new Error(`crds directory "${dir}" (from ${origin}) does not exist or has no argocd/ and kargo/ subdirectories`);
  }
  return dir;
}

function isCrdsDir(dir: string): boolean {
  return isDirectory(path.join(dir, 'argocd')) && isDirectory(path.join(dir, 'kargo'));
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
