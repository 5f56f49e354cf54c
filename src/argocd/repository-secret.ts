import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { PlatformLabels } from '../contracts/labels';
import { AppRelease } from '../plan/app-release';

/**
 * The Argo CD repository Secret that lets one Argo CD read the app's release repository, in the
 * namespace that Argo CD runs in, or nothing when the app declares no Argo CD credentials (a
 * public repository, or credentials the platform declares itself, e.g. a `repo-creds` template).
 * Argo CD finds it by its label and `url` (argo-cd v3.5.1 `util/db/repository_secrets.go`,
 * `getRepositorySecret`: the Secret of the Application's own project wins over an unscoped one),
 * so it is scoped to the app's AppProject and apps sharing a repository never share one Secret.
 * It holds no secret material; `gitops-platform.io/credentials-source` names what fills the rest.
 * @internal
 */
export function defineRepositorySecret(scope: Construct, ctx: AppRelease, namespace: string): void {
  const credentials = ctx.releaseRepoArgoCdCredentials;
  if (credentials === undefined) return;
  const app = ctx.plan.app;
  new k8s.KubeSecret(scope, `RepositorySecret-${namespace}`, {
    metadata: {
      name: `${app}-release-repo`,
      namespace,
      labels: { 'argocd.argoproj.io/secret-type': 'repository', [PlatformLabels.APP]: app },
      annotations: credentials.source !== undefined ? { 'gitops-platform.io/credentials-source': credentials.source } : undefined,
    },
    type: 'Opaque',
    stringData: { type: 'git', url: ctx.releaseRepo, project: app, ...credentials._fields },
  });
}
