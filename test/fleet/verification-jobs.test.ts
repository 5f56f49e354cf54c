import { Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { ClusterFleet } from '../../src';
import { simulateControllers } from '../../src/testkit';
import { Verification, VerificationArg } from '../../src/verification';
import { renderVerification, VerificationContext } from '../../src/verification/render';

const CTX: VerificationContext = {
  app: 'gateway',
  project: 'gateway',
  kargoStage: 'prod',
  pipelineStage: 'prod',
  namespace: 'gateway',
  clusters: [{ name: 'east', region: 'us-east-1', provider: 'aws', accelerator: 'cpu', tier: 'prod' }],
};
const versionCheck = () => Verification.http({ name: 'version', url: 'https://gateway.{cluster}.example.com/version', jsonPath: '{$.version}', successCondition: "result == '1.2.0'" });
const smoke = () => Verification.job({ name: 'smoke', image: 'ghcr.io/acme/smoke:1.0.0', env: { TARGET: 'https://gateway.{cluster}.example.com' } });

/** The template of each check rendered alone (a Stage's checks share one), in order. */
function templates(checks: Verification[], jobs?: VerificationContext['jobs']): any[] {
  return checks.map(check => {
    const rendered = renderVerification([check], { ...CTX, jobs });
    expect(rendered.problems).toEqual([]);
    const [t] = rendered.templates;
    return { apiVersion: 'argoproj.io/v1alpha1', kind: 'AnalysisTemplate', metadata: { name: `${t.name}-${check.name}`, namespace: 'gateway' }, spec: t.spec };
  });
}

/** The pod spec of the template's (only) job metric: a job check's, or an HTTP check's guard. */
const podSpec = (template: any) => template.spec.metrics.find((m: any) => m.provider.job).provider.job.spec.template.spec;

describe('verification Jobs on the hub', () => {
  test('the JSON guard and job checks pass Pod Security restricted, with and without a CA bundle', () => {
    for (const jobs of [undefined, { caBundle: { configMapName: 'acme-ca' } }]) {
      const objects = templates([versionCheck(), smoke()], jobs);
      expect(simulateControllers(objects).filter(f => f.code === 'pod-security-restricted')).toEqual([]);
      expect(podSpec(objects[0]).containers[0].securityContext).toEqual({
        allowPrivilegeEscalation: false,
        capabilities: { drop: ['ALL'] },
        privileged: false,
        readOnlyRootFilesystem: true,
        runAsNonRoot: true,
        runAsUser: 65532,
        seccompProfile: { type: 'RuntimeDefault' },
      });
    }
  });

  test('a CA bundle is mounted read-only; the guard adds it to Node\'s roots, a job check gets SSL_CERT_FILE unless it sets its own', () => {
    const jobs = { caBundle: { configMapName: 'acme-ca', key: 'trust-bundle.pem' } };
    const custom = Verification.job({ name: 'custom', image: 'ghcr.io/acme/smoke:1.0.0', env: { SSL_CERT_FILE: '/etc/ssl/mine.pem' } });
    const [guarded, job, own] = templates([versionCheck(), smoke(), custom], jobs);
    const guard = podSpec(guarded);
    expect(guard.volumes).toContainEqual({ name: 'ca-bundle', configMap: { name: 'acme-ca' } });
    expect(guard.containers[0].volumeMounts).toContainEqual({ mountPath: '/etc/gitops-platform/ca', name: 'ca-bundle', readOnly: true });
    expect(guard.containers[0].env).toContainEqual({ name: 'NODE_EXTRA_CA_CERTS', value: '/etc/gitops-platform/ca/trust-bundle.pem' });
    expect(podSpec(job).containers[0].env).toContainEqual({ name: 'SSL_CERT_FILE', value: '/etc/gitops-platform/ca/trust-bundle.pem' });
    expect(podSpec(own).containers[0].env.filter((e: any) => e.name === 'SSL_CERT_FILE')).toEqual([{ name: 'SSL_CERT_FILE', value: '/etc/ssl/mine.pem' }]);
    // without a bundle: nothing mounted
    expect(podSpec(templates([versionCheck()])[0]).volumes).toEqual([{ emptyDir: {}, name: 'tmp' }]);
  });

  test('the guard image comes through the fleet\'s registry; a check\'s own jsonGuardImage wins; job images stay', () => {
    const jobs = { imageRegistry: 'harbor.acme.internal/dockerhub' };
    const image = (t: any) => podSpec(t).containers[0].image;
    const [guarded, job] = templates([versionCheck(), smoke()], jobs);
    expect(image(guarded)).toBe('harbor.acme.internal/dockerhub/library/node:22-alpine');
    expect(image(job)).toBe('ghcr.io/acme/smoke:1.0.0');
    expect(image(templates([versionCheck()])[0])).toBe('docker.io/library/node:22-alpine');
    const own = Verification.http({ ...{ name: 'v2', url: 'https://x.{cluster}.example.com', successCondition: 'result.ok' }, jsonGuardImage: 'registry.acme.internal/node:22' });
    expect(image(templates([own], jobs)[0])).toBe('registry.acme.internal/node:22');
  });

  test('secret headers still reach the guard through secretKeyRef with a CA bundle', () => {
    const check = Verification.http({
      name: 'auth',
      url: 'https://x.{cluster}.example.com',
      successCondition: 'result.ok',
      headers: { Authorization: 'Bearer {{args.token}}' },
      args: { token: VerificationArg.fromSecret('probe', 'token') },
    });
    const env = podSpec(templates([check], { caBundle: { configMapName: 'acme-ca' } })[0]).containers[0].env;
    expect(env).toContainEqual({ name: 'CHECK_HEADER_0_VALUE_1', valueFrom: { secretKeyRef: { key: 'token', name: 'probe' } } });
  });

  test('fails if the fleet\'s CA bundle or registry cannot be used', () => {
    expect(() => new ClusterFleet(Testing.app(), 'fleet', {
      verificationJobs: { caBundle: { configMapName: 'Acme_CA', key: 'a/b' }, imageRegistry: 'https://harbor.acme.internal/' },
    })).toThrow([
      "ClusterFleet 'fleet': 3 problems",
      "  - verificationJobs caBundle configMapName must consist of lowercase letters, digits, '-' and '.', and start and end with a letter or digit, got \"Acme_CA\"",
      '  - verificationJobs caBundle key must consist of letters, digits, \'-\', \'_\' or \'.\', got "a/b"; use e.g. "ca.crt"',
      '  - verificationJobs imageRegistry must be a registry host with an optional port and path, without a scheme or trailing slash, '
      + 'got "https://harbor.acme.internal/"; use e.g. "harbor.acme.internal/dockerhub"',
    ].join('\n'));
  });
});
