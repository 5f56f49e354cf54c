import { describe, expect, test } from 'vitest';
import {
  checkConfigKey, checkDnsLabel, checkDnsSubdomain, checkLabelValue, checkPathSegmentName, checkQualifiedName,
} from '../../src/testkit/k8s-names';

// The test kit's own reading of k8s.io/apimachinery/pkg/util/validation, independent of src/util/names.ts
describe('Kubernetes name syntax (test kit)', () => {
  test('DNS-1123 labels and subdomains', () => {
    expect([checkDnsLabel('prod-1'), checkDnsSubdomain('kargo.akuity.io')]).toEqual([undefined, undefined]);
    expect(checkDnsLabel('Prod')).toMatch(/^"Prod" is not a dns-1123 label/);
    expect(checkDnsLabel('a'.repeat(64))).toMatch(/is longer than 63 characters \(dns-1123 label\)$/);
    expect(checkDnsSubdomain('a..b')).toMatch(/^"a..b" is not a dns-1123 subdomain/);
    expect(checkDnsSubdomain(`${'a'.repeat(250)}.com`)).toMatch(/is longer than 253 characters/);
  });

  test('qualified names (label and annotation keys), label values, path segments and ConfigMap keys', () => {
    expect([checkQualifiedName('gitops-platform.io/app'), checkQualifiedName('ring'), checkLabelValue(''), checkLabelValue('v1.2_3')])
      .toEqual([undefined, undefined, undefined, undefined]);
    expect(checkQualifiedName('Acme.io/ring')).toBeDefined();
    expect(checkQualifiedName('a/b/c')).toBeDefined();
    expect(checkLabelValue('can ary')).toBeDefined();
    expect([checkPathSegmentName('a/b'), checkPathSegmentName('..'), checkPathSegmentName('ok')].map(p => p === undefined)).toEqual([false, false, true]);
    expect([checkConfigKey('config.yaml'), checkConfigKey('a b')].map(p => p === undefined)).toEqual([true, false]);
  });
});
