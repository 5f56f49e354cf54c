import { describe, expect, test } from 'vitest';
import { chartTrailer, commitTrailer, imageTrailer, parseReleaseRecord, releaseCommitMessage } from '../../src/contracts/release-record';
import { SimulatedFreight } from '../../src/testkit/model/freight';
import { evaluateTemplate } from '../../src/testkit/model/template';

const IMAGE = 'ghcr.io/acme/api';
const SOURCE = 'https://github.com/acme/api.git';
const CHART = 'https://charts.example.com';

/** The message as Kargo evaluates it for a Freight (the test kit's model of the expressions). */
function evaluated(alias = 'wiggly-dog'): { message: string; freight: SimulatedFreight } {
  const warehouse = { metadata: { name: 'api' }, spec: { subscriptions: [{ image: { repoURL: IMAGE } }, { git: { repoURL: SOURCE } }, { chart: { repoURL: CHART, name: 'redis' } }] } };
  const freight = SimulatedFreight.of(warehouse, 2);
  const template = releaseCommitMessage('api', 'prod-w1', [imageTrailer(IMAGE), commitTrailer(SOURCE), chartTrailer(CHART, 'redis')]);
  const env = { ctx: { stage: 'prod-w1', promotion: 'prod-w1.01abc', targetFreight: { name: freight.name, alias } } };
  return { message: String(evaluateTemplate(template, env, freight.functions())), freight };
}

describe('release record', () => {
  test('the commit message reads as a subject and a block of trailers, one per artifact and the Freight', () => {
    const { message, freight } = evaluated();
    const lines = message.split('\n');
    expect(lines[0]).toBe(`render api for prod-w1 (Freight ${freight.name})`);
    expect(lines[1]).toBe('');
    expect(lines.slice(2).map((l) => l.split(':')[0])).toEqual(['Freight-Image', 'Freight-Commit', 'Freight-Chart', 'Kargo-Freight', 'Kargo-Freight-Alias', 'Kargo-Stage', 'Kargo-Promotion']);
    expect(lines[2]).toMatch(/^Freight-Image: ghcr\.io\/acme\/api 1\.2\.0 sha256:[0-9a-f]{64}$/);
  });

  test('parses back every artifact version, the Freight, its alias, the Stage and the Promotion', () => {
    const { message, freight } = evaluated();
    const record = parseReleaseRecord(`${message}\n`)!;
    expect(record).toMatchObject({ freight: freight.name, freightAlias: 'wiggly-dog', stage: 'prod-w1', promotion: 'prod-w1.01abc', format: 'trailers' });
    expect(record.artifacts.map((a) => [a.kind, a.repoUrl, a.name, a.version])).toEqual([
      ['image', IMAGE, undefined, '1.2.0'],
      ['git', SOURCE, undefined, expect.stringMatching(/^[0-9a-f]{40}$/)],
      ['chart', CHART, 'redis', '4.2.0'],
    ]);
    expect(record.artifacts[0].digest).toMatch(/^sha256:/);
  });

  test('an empty alias (git commit trims the trailing space) and an empty tag keep their fields', () => {
    const record = parseReleaseRecord('render api for dev (Freight f1)\n\nFreight-Image: ghcr.io/acme/api  sha256:abc\nKargo-Freight: f1\nKargo-Freight-Alias:\n')!;
    expect(record.freightAlias).toBeUndefined();
    expect(record.artifacts).toEqual([{ kind: 'image', repoUrl: IMAGE, version: '', digest: 'sha256:abc' }]);
  });

  test('a squash merge that put the record in a later paragraph is read from its last record', () => {
    const record = parseReleaseRecord('Promote api to prod-w1 (#12)\n\nRendered manifests of api.\n\nFreight-Image: ghcr.io/acme/api 1.4.2 sha256:d\nKargo-Freight: f7\n');
    expect(record).toMatchObject({ freight: 'f7', artifacts: [{ version: '1.4.2' }] });
  });

  test('reads the message of library versions before the trailers against the app\'s artifacts', () => {
    const message = `render api for dev (Freight f6)\n\n${IMAGE}:1.4.1\n${SOURCE}@0123456789abcdef0123456789abcdef01234567\n`;
    const record = parseReleaseRecord(message, [{ kind: 'image', repoUrl: IMAGE }, { kind: 'git', repoUrl: SOURCE }])!;
    expect(record).toEqual({
      freight: 'f6',
      format: 'legacy',
      artifacts: [
        { kind: 'image', repoUrl: IMAGE, name: undefined, version: '1.4.1' },
        { kind: 'git', repoUrl: SOURCE, name: undefined, version: '0123456789abcdef0123456789abcdef01234567' },
      ],
    });
  });

  test('a commit Kargo did not write has no record', () => {
    expect(parseReleaseRecord('Initial commit\n')).toBeUndefined();
    expect(parseReleaseRecord('hotfix: scale down\n\nSigned-off-by: A <a@example.com>\n')).toBeUndefined();
  });
});
