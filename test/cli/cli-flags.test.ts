import { describe, expect, test } from 'vitest';
import { run } from '../../src/cli';
import { countFlag, parseFlags, PLAN, VALIDATE } from '../../src/cli/cli-flags';
import { recordingIo } from '../support/cli-fixtures';
import { ROOT } from '../support/cli-temp-dirs';

describe('flags and usage', () => {
  test('each command documents every option and exits 0', async () => {
    for (const [argv, spec] of [[['plan', '--help'], PLAN], [['plan', '-h'], PLAN], [['validate', '--help'], VALIDATE], [['help', 'plan'], PLAN]] as const) {
      const { out, err, io } = recordingIo(ROOT);
      expect(await run([...argv], io)).toBe(0);
      const usage = out.join('');
      expect(err).toEqual([]);
      expect(usage).toMatch(new RegExp(`^usage:\n  cdk8s-gitops-platform ${spec.name} `));
      for (const flag of spec.flags) expect(usage).toContain(`--${flag.name}${flag.value ? ` <${flag.value}>` : ''}  `);
      expect(usage).toContain('exit codes with --detailed-exitcode');
    }
    const { out, io } = recordingIo(ROOT);
    await run(['plan', '--help'], io);
    for (const flag of ['--config <file>', '--now <iso time>', '--max-wave-growth <n>', '--json', '--comment', '--report <file>', '--quiet']) expect(out.join('')).toContain(flag);
  });

  test('fails if an option is unknown: names the command\'s --help', async () => {
    const { err, io } = recordingIo(ROOT);
    expect(await run(['validate', '--frobnicate'], io)).toBe(2);
    expect(err.join('')).toBe('error: validate option is unknown, got "--frobnicate"; `cdk8s-gitops-platform validate --help` lists them\n');
  });
});

describe('parseFlags', () => {
  test('values as --name value or --name=value (repeated ones joined by commas), switches, and positional arguments', () => {
    const flags = parseFlags(['manifests', '--skip-kind', 'Deployment', '--skip-kind=Service', '--quiet', '-h'], VALIDATE);
    expect(flags.values).toEqual({ 'skip-kind': 'Deployment,Service' });
    expect([...flags.switches].sort()).toEqual(['help', 'quiet']);
    expect(flags.positional).toEqual(['manifests']);
  });

  test('fails on a switch given a value, an option without one, and a count that is not a whole number', () => {
    expect(() => parseFlags(['--quiet=yes'], VALIDATE)).toThrow('--quiet takes no value, got "yes"; write --quiet alone');
    expect(() => parseFlags(['--base'], PLAN)).toThrow('--base needs a value, got nothing; write --base <git ref>');
    const flags = parseFlags(['--max-wave-growth', '2.5', '--risk-apps', ' '], PLAN);
    expect(() => countFlag(flags, 'max-wave-growth', 5)).toThrow('--max-wave-growth must be a whole number >= 0, got "2.5"; write e.g. --max-wave-growth 3');
    expect(() => countFlag(flags, 'risk-apps', 5)).toThrow(/--risk-apps must be a whole number >= 0/);
    expect(countFlag(flags, 'risk-clusters', 10)).toBe(10);
  });
});
