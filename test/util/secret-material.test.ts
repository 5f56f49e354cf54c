import { Duration, Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { ClusterAuth, ClusterFleet, DeployFreeze, FreezeSchedule, PlatformApp, PlatformStandards, Verification, WebhookReceiver } from '../../src';
import { APP_FIELDS, CREDENTIAL_SHAPES } from '../support/credentials';
import { appProps, errorOf, SMALL_FLEET, standardPipeline, world } from '../support/fixtures';

// Every string a user hands the library may reach a manifest, a report or a message: each
// credential shape, in each kind of free-text field, is refused with a message that names the
// field and never shows the credential.


describe.each(CREDENTIAL_SHAPES.map(s => [s.name, s] as const))('%s', (_, shape) => {
  test.each(APP_FIELDS)('is refused in an app\'s %s, without being shown', (_field, props) => {
    const w = world();
    let message: string;
    try {
      new PlatformApp(w.app, 'api', appProps(w, props(shape.text)));
      message = '';
    } catch (e) {
      message = (e as Error).message;
    }
    // a factory that refuses the text itself (a URL with credentials) is as good
    expect(message).toMatch(/holds secret material|must not carry credentials|credentials/);
    expect(message).not.toContain(shape.secret);
  });

  test('is refused in the fleet (verificationJobs imageRegistry, cluster labels, receivers) and the pipeline, without being shown', () => {
    const messages = [
      errorOf(() => new ClusterFleet(Testing.app(), 'fleet', { clusters: SMALL_FLEET, verificationJobs: { imageRegistry: shape.text } })),
      errorOf(() => new ClusterFleet(Testing.app(), 'fleet', { clusters: [{ ...SMALL_FLEET[0], labels: { team: 'x', note: shape.text } }] })),
      errorOf(() => new ClusterFleet(Testing.app(), 'fleet', {
        clusters: SMALL_FLEET, webhookReceivers: [WebhookReceiver.github({ name: 'gh', secretName: 'gh-webhook', repoUrls: [shape.text] })],
      })),
      errorOf(() => standardPipeline(Testing.app(), {
        freezes: [new DeployFreeze({ reason: `freeze ${shape.text}`, schedule: FreezeSchedule.cron('0 0 24 12 *', Duration.days(1)) })],
      })),
      errorOf(() => new PlatformStandards(Testing.app(), 'standards', { allowedRegistries: [shape.text] })),
    ];
    for (const message of messages) {
      expect(message).toMatch(/holds secret material/);
      expect(message).not.toContain(shape.secret);
    }
  });

  // the auth's options are written into the cluster Secret's config as given
  test.each([
    ['an exec argument', () => ClusterAuth.exec({ command: 'argocd-k8s-auth', args: ['--token', shape.text] }), 'auth: args[1]'],
    ['an exec environment value', () => ClusterAuth.exec({ command: 'argocd-k8s-auth', env: { NOTE: shape.text } }), 'auth: env.NOTE'],
    ['an eks role', () => ClusterAuth.eks({ clusterName: 'prod-1', roleArn: shape.text }), 'auth: roleArn'],
    ['an aks environment', () => ClusterAuth.aks({ environment: shape.text }), 'auth: environment'],
    ['a tls server name', () => ClusterAuth.exec({ command: 'argocd-k8s-auth' }, { serverName: shape.text }), 'auth.tls.serverName'],
  ])('is refused in a cluster\'s auth (%s), without being shown', (_where, auth, field) => {
    const message = errorOf(() => new ClusterFleet(Testing.app(), 'fleet', { clusters: [{ ...SMALL_FLEET[0], auth: auth() }] }));
    expect(message).toContain(field);
    expect(message).toMatch(/holds secret material/);
    expect(message).not.toContain(shape.secret);
  });
});

describe('the known cases of issue #32', () => {
  test('ArgoCdCredentials.managedSecret({ source }), githubApp and RepositoryCredentials.managedSecret with a private key in source are refused', () => {
    const key = CREDENTIAL_SHAPES.find(s => s.name.startsWith('an RSA private key'))!;
    for (const props of APP_FIELDS.slice(1, 4).map(([, p]) => p(key.text))) {
      const message = errorOf(() => {
        const w = world();
        new PlatformApp(w.app, 'api', appProps(w, props));
      });
      expect(message).toMatch(/^PlatformApp 'api': release\w+\.source holds secret material \(a private key \(PEM\)\), got "\*\*\*(\\n)?"; never put a credential/);
    }
  });

  test('a webhook receiver URL with a token is refused, and so never reaches fleet.fleet.md', () => {
    const pat = CREDENTIAL_SHAPES.find(s => s.name.startsWith('a GitHub token (ghp_)'))!;
    const message = errorOf(() => new ClusterFleet(Testing.app(), 'fleet', {
      clusters: SMALL_FLEET, webhookReceivers: [WebhookReceiver.github({ name: 'gh', secretName: 'gh-webhook', repoUrls: [`https://${pat.text}@github.com/acme/`] })],
    }));
    expect(message).toBe('ClusterFleet \'fleet\': webhookReceivers[0].repoUrls[0] holds secret material (credentials in a URL), got "https://***@github.com/acme/"; '
      + 'never put a credential in a definition (it would be committed with the manifests): reference it, e.g. a Secret another system fills '
      + '(RepositoryCredentials.managedSecret, VerificationArg.secret) or a workload identity');
  });

  test('verificationJobs.imageRegistry of the form user:token@host is refused without echoing the token', () => {
    const message = errorOf(() => new ClusterFleet(Testing.app(), 'fleet', { clusters: SMALL_FLEET, verificationJobs: { imageRegistry: 'bot:s3cr3t-t0ken@harbor.acme.internal/dockerhub' } }));
    expect(message).toMatch(/^ClusterFleet 'fleet': verificationJobs.imageRegistry holds secret material \(a user name and password/);
    expect(message).toContain('got "***@harbor.acme.internal/dockerhub"');
    expect(message).not.toContain('s3cr3t');
  });

  test('a value under a key only credentials have is refused; references, switches and Secret names are not', () => {
    // an HTTP check's headers are the one map of the user's own keys an app has
    const headers = (h: Record<string, string>) => ({ verification: [Verification.http({ name: 'probe', url: 'https://x.acme.example/health', headers: h })] });
    let w = world();
    expect(errorOf(() => new PlatformApp(w.app, 'api', appProps(w, headers({ password: 'hunter2!' })))))
      .toMatch(/verification\[0\]\.headers\.password holds secret material \(a value under "password"\), got "\*\*\*"/);
    w = world();
    expect(errorOf(() => new PlatformApp(w.app, 'api', appProps(w, headers({ password: '${{ secret("db").password }}', secretName: 'db', token: 'true' })))))
      .not.toMatch(/holds secret material/);
  });
});
