import { describe, expect, test } from 'vitest';
import { measureControllerLoad } from '../../src/load/controller-load';
import { controllerLoadMarkdown } from '../../src/report/controller-load-markdown';
import { argoCd, kargo } from '../support/load-objects';

describe('controllerLoadMarkdown', () => {
  const lines = controllerLoadMarkdown(measureControllerLoad([...argoCd, ...kargo]));

  test('one table per controller: Argo CD instances and their shards, Kargo shards, hosts, release repositories', () => {
    expect(lines.filter(l => l.startsWith('#'))).toEqual([
      '## Controller load', '### Argo CD', '### Application controller shards', '### Kargo', '### Registries and Git hosts (polling, steady state)',
      '### Release repositories',
    ]);
    expect(lines).toContain('| hub (argocd) | 3 | 4 | 3 | 2 | 3 |');
    // a cluster's own Argo CD runs no ApplicationSets: it has no shard table rows
    expect(lines.filter(l => l.startsWith('| cluster edge-1 |'))).toEqual(['| cluster edge-1 | 0 | 1 | 1 | 0 | 0 |']);
    expect(lines).toContain('| (default) | 3 | 1 | 2 |');
  });

  test('a registry\'s requests are a share of Kargo\'s limit of 20 per second; a NewestBuild host may take more (+)', () => {
    // ghcr.io: 18 listings and 270 manifest GETs an hour of 72,000
    expect(lines).toContain('| `ghcr.io` | registry | 2 | 2 | 18 | 18 | 270+ | 0.4% |');
    expect(lines).toContain('| `github.com` | git | 1 | 1 | 6 | 6 | 0 |  |');
  });
});
