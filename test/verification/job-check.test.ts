import { Duration, Size } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { Verification, VerificationArg } from '../../src/verification';
import { appError } from '../support/app-error';
import { expectValid, GATEWAY_IMAGE, render } from '../support/verification-fixtures';

describe('Verification.job', () => {
  const smoke = () => Verification.job({
    name: 'smoke',
    image: 'ghcr.io/acme/gateway-smoke:{{args.version}}',
    command: ['/smoke'],
    containerArgs: ['--target', 'https://gateway.{cluster}.example.com', '--region={region}'],
    env: { API_TOKEN: '{{args.token}}', TIER: '{tier}', STAGE: '{{args.stage}}' },
    args: { version: VerificationArg.imageTag(GATEWAY_IMAGE), token: VerificationArg.fromSecret('gateway-probe', 'token') },
  });

  test('the JobSpec validates against the pinned CRD and the cluster placeholders are filled', () => {
    const rendered = render([smoke()]);
    expectValid(rendered);
    const [first, second] = rendered.templates[0].spec.metrics;
    const container = (m: any) => m.provider.job.spec.template.spec.containers[0];
    expect(container(first).args).toEqual(['--target', 'https://gateway.gcp-usc1-h100-prod-01.example.com', '--region=us-central1']);
    expect(container(second).args).toEqual(['--target', 'https://gateway.azr-eus-mi300x-prod-01.example.com', '--region=eastus']);
    expect(container(first).image).toBe('ghcr.io/acme/gateway-smoke:{{args.version}}');
    expect(first.provider.job.metadata.labels['gitops-platform.io/cluster']).toBe('gcp-usc1-h100-prod-01');
  });

  test('a secret env is read from the Secret by the kubelet, never substituted into the Job', () => {
    const rendered = render([smoke()]);
    const env = rendered.templates[0].spec.metrics[0].provider.job.spec.template.spec.containers[0].env;
    expect(env).toEqual([
      { name: 'API_TOKEN', valueFrom: { secretKeyRef: { name: 'gateway-probe', key: 'token' } } },
      { name: 'TIER', value: 'prod' },
      { name: 'STAGE', value: '{{args.stage}}' },
    ]);
    expect(rendered.templates[0].spec.args).toEqual([{ name: 'stage' }, { name: 'version' }]);
  });

  test('defaults: one run, no failure tolerated, no retry, a 10 minute deadline, non-root with a writable /tmp', () => {
    const [metric] = render([Verification.job({ image: 'ghcr.io/acme/smoke:1.0.0', containerArgs: ['{cluster}'] })]).templates[0].spec.metrics;
    // Argo Rollouts keeps 24 characters of a job metric's name in its Job's name, where
    // "job-gcp-usc1-h100-prod-0" would share a Job with prod-02's: a longer name is shortened
    // with a hash of the whole, and the Job says which cluster it measures
    expect(metric.name).toBe('job-gcp-usc1-h10-ac1bbea');
    expect(metric.provider.job.metadata.labels['gitops-platform.io/cluster']).toBe('gcp-usc1-h100-prod-01');
    expect(metric.count).toBe(1);
    expect(metric.failureLimit).toBe(0);
    expect(metric.interval).toBeUndefined();
    expect(metric.consecutiveErrorLimit).toBeUndefined();
    const spec = metric.provider.job.spec;
    expect(spec.backoffLimit).toBe(0);
    expect(spec.activeDeadlineSeconds).toBe(600);
    const pod = spec.template.spec;
    expect(pod.restartPolicy).toBe('Never');
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(pod.containers[0].securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 65532, readOnlyRootFilesystem: true });
    expect(pod.containers[0].volumeMounts).toEqual([{ mountPath: '/tmp', name: 'tmp' }]);
    expect(pod.containers[0].resources).toEqual({ limits: { cpu: '1', memory: '512Mi' }, requests: { cpu: '100m', memory: '128Mi' } });
    expect(spec.template.metadata.labels['cdk8s.io/metadata.addr']).toBeUndefined();
  });

  test('options: backoffLimit, activeDeadline, user, count with interval', () => {
    const rendered = render([Verification.job({
      image: 'ghcr.io/acme/smoke:1.0.0', backoffLimit: 2, activeDeadline: Duration.minutes(3), user: 1000, count: 3, failureLimit: 1,
    })]);
    expectValid(rendered);
    const [metric] = rendered.templates[0].spec.metrics;
    expect(metric).toMatchObject({ name: 'job', interval: '1m', count: 3, failureLimit: 1 });
    expect(metric.provider.job.spec).toMatchObject({ backoffLimit: 2, activeDeadlineSeconds: 180 });
    expect(metric.provider.job.spec.template.spec.securityContext.runAsUser).toBe(1000);
  });

  test('snapshot', () => {
    const rendered = render([smoke()]);
    expectValid(rendered);
    expect(rendered).toMatchSnapshot();
  });
});

describe('errors raised by cdk8s itself name the construct, the field and the fix', () => {
  test('a job check whose memory cdk8s-plus cannot render', () => {
    const check = Verification.job({ name: 'smoke', image: 'ghcr.io/acme/smoke:1.0.0', resources: { memory: { request: Size.kibibytes(1) } } });
    const message = appError({ verification: [check] });
    expect(message).toMatch(/^PlatformApp 'api'/);
    expect(message).toContain("job resources or activeDeadline was refused by cdk8s ('1 kibibytes' cannot be converted into a whole number of mebibytes); "
      + 'give memory and storage in whole mebibytes');
    expect(message).not.toContain('Failed serializing construct');
  });
});
