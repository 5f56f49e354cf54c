import { execFileSync } from 'child_process';
import { rmSync, writeFileSync } from 'fs';
import { join } from 'path';
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

/**
 * The one object the platform team applies by hand, once, as docs/getting-started.md tells:
 * an Argo CD Application over the committed `manifests/` of the platform repository, synced
 * automatically (sync waves order the Kargo project namespaces, Projects and the rest).
 */
export function bootstrapApplication(repoUrl: string): any {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name: 'platform', namespace: 'argocd' },
    spec: {
      project: 'default',
      source: { repoURL: repoUrl, targetRevision: 'main', path: 'manifests', directory: { include: '*.k8s.yaml' } },
      destination: { server: 'https://kubernetes.default.svc' },
      syncPolicy: {
        automated: { prune: true, selfHeal: true },
        syncOptions: ['ServerSideApply=true'],
        retry: { limit: 5, backoff: { duration: '5s', factor: 2, maxDuration: '1m' } },
      },
    },
  };
}

/** Argo CD's `default` AppProject, which argocd-server creates at its start (the suite runs no argocd-server). */
export const DEFAULT_APP_PROJECT = {
  apiVersion: 'argoproj.io/v1alpha1',
  kind: 'AppProject',
  metadata: { name: 'default', namespace: 'argocd' },
  spec: { sourceRepos: ['*'], destinations: [{ server: '*', namespace: '*' }], clusterResourceWhitelist: [{ group: '*', kind: '*' }] },
};
