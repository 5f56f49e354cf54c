import { describe, expect, test } from 'vitest';
import { formatIssues } from '../../src/testkit/manifest-issue';

describe('formatIssues', () => {
  test('one line per issue: source, kind/namespace/name (kind/name when cluster-scoped, - when unnamed), path (/ for the object), message', () => {
    expect(formatIssues([
      { source: 'a.yaml', apiVersion: 'kargo.akuity.io/v1alpha1', kind: 'Stage', namespace: 'api', name: 'dev', path: '/spec/x', message: 'unknown field "x"' },
      { source: 'a.yaml', apiVersion: 'kargo.akuity.io/v1alpha1', kind: 'Project', name: 'api', path: '', message: 'bad' },
      { source: 'b.yaml', apiVersion: '', kind: '', name: '', path: '', message: 'does not parse' },
    ])).toBe([
      'a.yaml Stage/api/dev /spec/x: unknown field "x"',
      'a.yaml Project/api /: bad',
      'b.yaml - /: does not parse',
    ].join('\n'));
    expect(formatIssues([])).toBe('');
  });
});
