import { describe, expect, test } from 'vitest';
import { apiVersionProblem, dns1123LabelProblem, dns1123SubdomainProblem, labelKeyProblem, labelValueProblem } from '../../src/util/names';

// k8s.io/apimachinery/pkg/util/validation: IsDNS1123Label, IsDNS1123Subdomain, IsQualifiedName, IsValidLabelValue

describe('Kubernetes names', () => {
  test('a DNS-1123 label: 1 to 63 lowercase letters, digits and \'-\', alphanumeric at both ends', () => {
    expect(['a', 'prod-1', '0abc', 'a'.repeat(63)].map(v => dns1123LabelProblem(v))).toEqual([undefined, undefined, undefined, undefined]);
    expect(dns1123LabelProblem('')).toBe('must not be empty');
    expect(dns1123LabelProblem('a'.repeat(64))).toBe('must be at most 63 characters (it has 64)');
    expect(['Prod', '-a', 'a-', 'a.b', 'a_b'].every(v => dns1123LabelProblem(v)?.startsWith('must consist of lowercase letters'))).toBe(true);
    // a caller may ask for less room, e.g. a name that gets a suffix
    expect(dns1123LabelProblem('abcdef', 5)).toBe('must be at most 5 characters (it has 6)');
  });

  test('a DNS-1123 subdomain: dot-separated labels, up to 253 characters', () => {
    expect(dns1123SubdomainProblem('kargo.akuity.io')).toBeUndefined();
    expect(dns1123SubdomainProblem('a..b')).toMatch(/^must consist of lowercase letters, digits, '-' and '\.'/);
    expect(dns1123SubdomainProblem(`${'a'.repeat(63)}.`.repeat(4).slice(0, 254))).toBe('must be at most 253 characters (it has 254)');
  });

  test('a label key is an optional DNS subdomain prefix and a name of up to 63 characters', () => {
    expect(['ring', 'gitops-platform.io/tier', 'kargo.akuity.io/cred-type', 'A_b.c'].map(labelKeyProblem)).toEqual([undefined, undefined, undefined, undefined]);
    expect(labelKeyProblem('Acme.io/ring')).toMatch(/^prefix "Acme.io" must consist of/);
    expect(labelKeyProblem('acme.io/')).toBe('name part must not be empty');
    expect(labelKeyProblem('-ring')).toMatch(/^name part must consist of alphanumerics/);
    expect(labelKeyProblem('r'.repeat(64))).toBe('name part must be at most 63 characters (it has 64)');
  });

  test('a label value may be empty, else up to 63 alphanumerics, \'-\', \'_\' and \'.\', alphanumeric at both ends', () => {
    expect(['', 'canary', 'v1.2_3', 'A'].map(labelValueProblem)).toEqual([undefined, undefined, undefined, undefined]);
    expect(labelValueProblem('canary!')).toMatch(/^must be empty or consist of alphanumerics/);
    expect(labelValueProblem('x'.repeat(64))).toBe('must be at most 63 characters (it has 64)');
  });

  test('an API version as Helm\'s .Capabilities.APIVersions holds it: v1, group/version, group/version/Kind', () => {
    expect(['v1', 'apps/v1', 'monitoring.coreos.com/v1', 'policy/v1beta1', 'nvidia.com/v1/ClusterPolicy'].map(apiVersionProblem))
      .toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect(['nvidia.com', 'apps/1', 'Apps/v1', 'v1/deployment'].map(v => apiVersionProblem(v) !== undefined)).toEqual([true, true, true, true]);
  });
});
