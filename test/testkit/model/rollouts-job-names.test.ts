import { describe, expect, test } from 'vitest';
import { checkJobNames } from '../../../src/testkit/model/rollouts-job-names';

const stage = { apiVersion: 'kargo.akuity.io/v1alpha1', kind: 'Stage', metadata: { name: 'dev', namespace: 'shop' } };
const job = (name: string, extra: Record<string, unknown> = {}) => ({ name, provider: { job: {} }, ...extra });
const codes = (metrics: any[]) => checkJobNames(stage, metrics).map(f => `${f.code}: ${f.message.split(':')[0]}`);

describe('checkJobNames (Argo Rollouts metricproviders/job/job.go newJobName)', () => {
  test('a metric name short enough is kept whole in its Jobs\' names', () => {
    expect(codes([job('smoke'), job('smoke-2', { count: 150 }), { name: 'web', provider: { web: {} } }])).toEqual([]);
  });

  test('a name cut to end in "-" makes a Job name Kubernetes refuses', () => {
    expect(codes([job('smoke-aws-use1-cpu-prod-01')])).toEqual([
      'job-name-invalid: job metric "smoke-aws-use1-cpu-prod-01" runs measurement 1 as Job "<run uid>.smoke-aws-use1-cpu-prod-.1", which is not a valid name',
    ]);
  });

  test('two names cut to the same text share a Job; measurement 10 is cut one character shorter', () => {
    expect(codes([job('smoke-aws-use1-cpu-prodx-01'), job('smoke-aws-use1-cpu-prodx-02')])).toHaveLength(2);
    // 24 characters, the same up to the 23rd: kept whole for measurements 1-9, shared from measurement 10
    expect(codes([job('version-aws-use1-cpu-pra', { count: 10 }), job('version-aws-use1-cpu-prb', { count: 10 })])).toEqual([
      'job-name-shared: job metrics "version-aws-use1-cpu-pra" and "version-aws-use1-cpu-prb" both run measurement 10 as Job "<run uid>.version-aws-use1-cpu-pr.10"',
      'job-name-shared: job metrics "version-aws-use1-cpu-prb" and "version-aws-use1-cpu-pra" both run measurement 10 as Job "<run uid>.version-aws-use1-cpu-pr.10"',
    ]);
  });
});
