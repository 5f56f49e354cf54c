import { describe, expect, test } from 'vitest';
import { errorOf } from '../support/fixtures';
import { GOOD, parse, problemsOf, SOURCE } from '../support/terraform-output';

describe('EntryReader', () => {
  test('fails if a required field is missing', () => {
    const { endpoint: _, ...rest } = GOOD;
    expect(errorOf(() => parse([rest]))).toBe(`${SOURCE}: clusters[0] ("aws-use1-h100-prod-01"): endpoint is required, got nothing; `
      + 'use the https:// URL of the Kubernetes API server (the cluster resource\'s endpoint attribute)');
    const { name: __, ...unnamed } = GOOD;
    expect(errorOf(() => parse([unnamed]))).toContain('clusters[0]: name is required, got nothing; every cluster of a list needs a name');
  });

  test('fails if a field has the wrong type', () => {
    const problems = problemsOf(errorOf(() => parse({
      [GOOD.name]: { ...GOOD, name: undefined, accelerator_count: '8', kubernetes_version: 1.3, labels: { ring: 1 }, production: 'yes' },
    })));
    expect(problems).toEqual([
      `${SOURCE}: clusters["aws-use1-h100-prod-01"]: production must be true or false, got "yes"; write it without quotes`,
      `${SOURCE}: clusters["aws-use1-h100-prod-01"]: accelerator_count must be a whole number >= 0, got "8"; write it without quotes`,
      `${SOURCE}: clusters["aws-use1-h100-prod-01"]: kubernetes_version must be a string, got 1.3; quote it: as a number, 1.30 is 1.3`,
      `${SOURCE}: clusters["aws-use1-h100-prod-01"]: labels["ring"] must be a string, got 1; Kubernetes labels and environment variables are strings: quote it`,
    ]);
  });

  test('fails if a field is unknown, suggesting the closest known one', () => {
    const { endpoint, ...rest } = GOOD;
    const problems = problemsOf(errorOf(() => parse([{ ...rest, endpiont: endpoint, caData: 'Q0E=', tags: {}, vpc_id: 'vpc-0abc' }])));
    expect(problems).toEqual([
      `${SOURCE}: clusters[0] ("aws-use1-h100-prod-01"): endpiont is not a known field, got "${endpoint}"; did you mean "endpoint"?`,
      `${SOURCE}: clusters[0] ("aws-use1-h100-prod-01"): caData is not a known field, got "Q0E="; did you mean "ca_data"?`,
      `${SOURCE}: clusters[0] ("aws-use1-h100-prod-01"): tags is not a known field, got {}; did you mean "labels"?`,
      `${SOURCE}: clusters[0] ("aws-use1-h100-prod-01"): vpc_id is not a known field, got "vpc-0abc"; remove it; the known fields are `
        + 'name, endpoint, provider, region, tier, production, accelerator, accelerator_count, kubernetes_version, api_versions, labels, ca_data, auth, argocd, shard',
      `${SOURCE}: clusters[0] ("aws-use1-h100-prod-01"): endpoint is required, got nothing; `
        + 'use the https:// URL of the Kubernetes API server (the cluster resource\'s endpoint attribute)',
    ]);
    expect(errorOf(() => parse([{ ...GOOD, auth: { type: 'eks', rolearn: 'x' } }]))).toContain('auth.rolearn is not a known field, got "x"; did you mean "role_arn"?');
  });
});
