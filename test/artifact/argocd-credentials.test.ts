import { Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { ArgoCdCredentials, ArgoCdTopology, ClusterFleet, PlatformApp, PlatformAppProps } from '../../src';
import { formatIssues, ManifestValidator } from '../../src/testkit';
import { findSecretMaterial } from '../../src/testkit/secret-guard';
import { appProps, errorOf, SMALL_FLEET, standardPipeline, world } from '../support/fixtures';

const OWN_ARGO_CD = ['gcp-dev-h100', 'aws-prod-cpu-2'];

/** The small fleet with two clusters on their own Argo CD, and one app; every chart's objects. */
function synth(overrides: Partial<PlatformAppProps>) {
  const app = Testing.app();
  const clusters = SMALL_FLEET.map(c => OWN_ARGO_CD.includes(c.name) ? { ...c, argoCd: ArgoCdTopology.perCluster({ namespace: 'gitops' }) } : c);
  const fleet = new ClusterFleet(app, 'fleet', { clusters, argoCdNamespace: 'argo' });
  new PlatformApp(app, 'api', appProps({ app, fleet, pipeline: standardPipeline(app) }, overrides));
  return app.charts.map(chart => ({ id: chart.node.id, objects: chart.toJson() as any[] }));
}

const repositorySecrets = (charts: ReturnType<typeof synth>) => charts.flatMap(c => c.objects
  .filter(o => o.kind === 'Secret' && o.metadata.labels?.['argocd.argoproj.io/secret-type'] === 'repository')
  .map(o => ({ chart: c.id, namespace: o.metadata.namespace, secret: o })));

describe('Argo CD read access to the release repository', () => {
  const githubApp = ArgoCdCredentials.githubApp({ appId: 123, installationId: 456, source: 'ExternalSecret argocd-github-app (merge)' });

  test('one repository Secret per Argo CD that syncs the app: the hub\'s namespace and each cluster\'s own', () => {
    const charts = synth({ releaseRepoArgoCdCredentials: githubApp });
    const secrets = repositorySecrets(charts);
    expect(secrets.map(s => [s.chart, s.namespace]).sort()).toEqual([
      ['api', 'argo'],
      ['api--aws-prod-cpu-2', 'gitops'],
      ['api--gcp-dev-h100', 'gitops'],
    ]);
    for (const { secret } of secrets) {
      expect(secret.metadata).toMatchObject({
        name: 'api-release-repo',
        labels: { 'argocd.argoproj.io/secret-type': 'repository' },
        annotations: { 'gitops-platform.io/credentials-source': 'ExternalSecret argocd-github-app (merge)' },
      });
      // the url is the one the Applications read, scoped to the app's AppProject
      expect(secret.stringData).toEqual({ type: 'git', url: 'https://github.com/acme/releases.git', project: 'api', githubAppID: '123', githubAppInstallationID: '456' });
      expect(findSecretMaterial(secret)).toEqual([]);
    }
    const sources = charts.flatMap(c => c.objects).flatMap(o => o.kind === 'Application' ? [o.spec.source.repoURL]
      : o.kind === 'ApplicationSet' ? [o.spec.template.spec.source.repoURL] : []);
    expect(new Set(sources)).toEqual(new Set([secrets[0].secret.stringData.url]));
    expect(formatIssues(ManifestValidator.load().validateObjects(charts.flatMap(c => c.objects)))).toBe('');
  });

  test('Azure workload identity needs nothing filled in; a managed Secret is a shell', () => {
    const [azure] = repositorySecrets(synth({ releaseRepoArgoCdCredentials: ArgoCdCredentials.azureWorkloadIdentity() }));
    expect(azure.secret.stringData).toEqual({ type: 'git', url: 'https://github.com/acme/releases.git', project: 'api', useAzureWorkloadIdentity: 'true' });
    expect(azure.secret.metadata.annotations).toBeUndefined();
    const [managed] = repositorySecrets(synth({ releaseRepoArgoCdCredentials: ArgoCdCredentials.managedSecret({ source: 'vault:kv/argocd/releases' }) }));
    expect(managed.secret.stringData).toEqual({ type: 'git', url: 'https://github.com/acme/releases.git', project: 'api' });
  });

  test('nothing is declared by default', () => {
    expect(repositorySecrets(synth({}))).toEqual([]);
  });

  test('fails if the GitHub App ids or the source are missing', () => {
    const bad = ArgoCdCredentials.githubApp({ appId: 0, installationId: 1.5, enterpriseBaseUrl: 'http://ghe.acme.com', source: ' ' });
    const message = errorOf(() => synth({ releaseRepoArgoCdCredentials: bad }));
    expect(message).toContain('releaseRepoArgoCdCredentials: githubApp source must say where the secret fields come from, got " "; e.g. "ExternalSecret argocd-releases (merge)"');
    expect(message).toContain('releaseRepoArgoCdCredentials: githubApp appId must be a whole number above 0, got 0; copy it from the App\'s settings page');
    expect(message).toContain('releaseRepoArgoCdCredentials: githubApp installationId must be a whole number above 0, got 1.5');
    expect(message).toContain('releaseRepoArgoCdCredentials: githubApp enterpriseBaseUrl must be an https:// URL without credentials, got "http://ghe.acme.com"');
  });
});

describe('a GitHub App reads only GitHub', () => {
  const app = (releaseRepo: string, enterpriseBaseUrl?: string) => errorOrNothing(() => {
    const w = world();
    new PlatformApp(w.app, 'api', appProps(w, {
      releaseRepo,
      releaseRepoArgoCdCredentials: ArgoCdCredentials.githubApp({ appId: 1, installationId: 2, enterpriseBaseUrl, source: 'ExternalSecret argocd-github-app (merge)' }),
    }));
  });

  test('fails for a release repository on another host: Argo CD asks api.github.com (or the Enterprise API) for the token', () => {
    expect(app('https://gitlab.com/acme/releases.git')).toMatch(/^PlatformApp 'api': releaseRepoArgoCdCredentials is a GitHub App, which authenticates only to github.com \(or to the GitHub Enterprise host of enterpriseBaseUrl\), but the release repository is on gitlab.com, got "github-app"; use ArgoCdCredentials.managedSecret/);
    expect(app('https://git.acme.example/acme/releases.git', 'https://ghe.acme.example/api/v3')).toMatch(/is a GitHub App of the GitHub Enterprise at ghe.acme.example, but the release repository is on git.acme.example/);
  });

  test('github.com, and a GitHub Enterprise repository on the host of enterpriseBaseUrl (or its api. host), are accepted', () => {
    expect(app('https://github.com/acme/releases.git')).toBe('');
    expect(app('https://ghe.acme.example/acme/releases.git', 'https://ghe.acme.example/api/v3')).toBe('');
    expect(app('https://ghe.acme.example/acme/releases.git', 'https://api.ghe.acme.example')).toBe('');
  });
});

function errorOrNothing(fn: () => unknown): string {
  try {
    fn();
    return '';
  } catch (e) {
    return (e as Error).message;
  }
}
