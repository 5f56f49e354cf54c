import { execFileSync } from 'child_process';
import { readFileSync, rmSync, writeFileSync } from 'fs';
import { join } from 'path';
import { parse } from 'yaml';
import { E2eEnvironment } from '../platform/platform';

/**
 * Synthesizes the e2e platform (`e2e/platform/main.ts`, the library's public API) for an
 * environment into `outDir`, as `npm run synth` does for apps/: `CDK8S_OUTDIR`, one run of tsx.
 */
export function synthPlatform(root: string, env: E2eEnvironment, workDir: string, outDir: string): void {
  const envFile = join(workDir, 'environment.json');
  writeFileSync(envFile, JSON.stringify(env, null, 2));
  rmSync(outDir, { recursive: true, force: true });
  execFileSync(join(root, 'node_modules', '.bin', 'tsx'), [join(root, 'e2e', 'platform', 'main.ts'), envFile], {
    cwd: root,
    env: { ...process.env, CDK8S_OUTDIR: outDir },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

/** The example Application of docs/fleet.md, which this suite applies as it is but for its repository URL. */
export const BOOTSTRAP_APPLICATION = join(__dirname, '..', 'platform', 'bootstrap-application.yaml');
const DOCUMENTED_REPO_URL = 'https://git.example.com/acme/platform.git';

/**
 * The one object the platform team applies by hand, once, as docs/fleet.md tells: an Argo CD
 * Application over the committed `manifests/` of the platform repository, synced automatically
 * (sync waves order the Kargo project namespaces, Projects and the rest).
 */
export function bootstrapApplication(repoUrl: string): any {
  const app = parse(readFileSync(BOOTSTRAP_APPLICATION, 'utf8'));
  if (app?.spec?.source?.repoURL !== DOCUMENTED_REPO_URL) {
    throw new Error(`${BOOTSTRAP_APPLICATION}: spec.source.repoURL is not ${DOCUMENTED_REPO_URL}, got ${app?.spec?.source?.repoURL}`);
  }
  app.spec.source.repoURL = repoUrl;
  return app;
}

/** Argo CD's `default` AppProject, which argocd-server creates at its start (the suite runs no argocd-server). */
export const DEFAULT_APP_PROJECT = {
  apiVersion: 'argoproj.io/v1alpha1',
  kind: 'AppProject',
  metadata: { name: 'default', namespace: 'argocd' },
  spec: { sourceRepos: ['*'], destinations: [{ server: '*', namespace: '*' }], clusterResourceWhitelist: [{ group: '*', kind: '*' }] },
};
