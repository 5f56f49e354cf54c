import { Duration } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { describe, expect, test } from 'vitest';
import { DEFAULT_JOB_RESOURCES, JobSpecInput, renderJobSpec } from '../../src/verification/job-spec';

const input = (labels: Record<string, string>, image = 'ghcr.io/acme/check:1'): JobSpecInput => ({
  image,
  command: ['node', '-e', ''],
  env: [{ name: 'A', value: 'a' }, { name: 'TOKEN', secretName: 'creds', secretKey: 'token' }],
  backoffLimit: 0,
  activeDeadline: Duration.minutes(5),
  user: 65532,
  resources: DEFAULT_JOB_RESOURCES,
  labels,
  caBundle: { bundle: { configMapName: 'ca' }, env: 'SSL_CERT_FILE' },
});

/**
 * A render of `i` that no earlier render answers: cdk8s-plus pulls Always when no policy is
 * given, so naming that policy renders the same spec under a key of its own.
 */
function freshRender(i: JobSpecInput): any {
  return renderJobSpec({ ...i, imagePullPolicy: kplus.ImagePullPolicy.ALWAYS });
}

describe('renderJobSpec', () => {
  test('a spec rendered again for other labels is the spec rendered for those labels alone', () => {
    const first = renderJobSpec(input({ 'b/app': 'one', 'a/stage': 'dev' }));
    const again = renderJobSpec(input({ 'b/app': 'two', 'a/stage': 'prod' }));
    expect(JSON.stringify(again)).toBe(JSON.stringify(freshRender(input({ 'b/app': 'two', 'a/stage': 'prod' }))));
    expect(again.template.metadata.labels).toEqual({ 'a/stage': 'prod', 'b/app': 'two' });
    expect(first.template.metadata.labels).toEqual({ 'a/stage': 'dev', 'b/app': 'one' });
  });

  test('changing a spec handed out changes no later render: the first is the caller\'s, later ones share a frozen spec', () => {
    const first = renderJobSpec(input({ app: 'one' }, 'ghcr.io/acme/copy:1'));
    first.template.spec.containers[0].image = 'changed';
    const second = renderJobSpec(input({ app: 'two' }, 'ghcr.io/acme/copy:1'));
    expect(() => {
      second.template.spec.containers[0].name = 'changed';
    }).toThrow(TypeError);
    // the path to the labels is the render's own
    second.template.metadata.labels = { app: 'mine' };
    const third = renderJobSpec(input({ app: 'three' }, 'ghcr.io/acme/copy:1'));
    expect(third.template.spec.containers[0]).toMatchObject({ image: 'ghcr.io/acme/copy:1', name: 'check' });
    expect(third.template.metadata.labels).toEqual({ app: 'three' });
  });

  test('a different input is rendered, not taken from another input', () => {
    renderJobSpec(input({ app: 'one' }, 'ghcr.io/acme/a:1'));
    expect(renderJobSpec(input({ app: 'one' }, 'ghcr.io/acme/b:1')).template.spec.containers[0].image).toBe('ghcr.io/acme/b:1');
    expect(renderJobSpec({ ...input({ app: 'one' }, 'ghcr.io/acme/a:1'), activeDeadline: Duration.minutes(6) }).activeDeadlineSeconds).toBe(360);
  });
});
