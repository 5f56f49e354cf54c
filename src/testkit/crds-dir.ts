import * as fs from 'fs';
import * as path from 'path';

/**
 * Checks that an explicitly given CRDs directory looks like the pinned one (`argocd/` and `kargo/`
 * subdirectories) and returns its absolute path.
 */
export function requireCrdsDir(dir: string): string {
  const resolved = path.resolve(dir);
  if (!isDirectory(path.join(resolved, 'argocd')) || !isDirectory(path.join(resolved, 'kargo'))) {
    throw new Error(`crds directory "${resolved}" (from the crdsDir option) does not exist or has no argocd/ and kargo/ subdirectories`);
  }
  return resolved;
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
