import { describe, expect, test } from 'vitest';
import { jobNameProblems, jobNameStem, jobSafeMetricName } from '../../src/verification/job-names';

describe('job metric names', () => {
  test('Argo Rollouts keeps what fits after the run uid in 63 characters, less for measurement 10 and later', () => {
    const name = 'version-aws-usw2-cpu-prod-01-x';
    expect(jobNameStem(name, 1)).toBe('version-aws-usw2-cpu-pro');
    expect(jobNameStem(name, 10)).toBe('version-aws-usw2-cpu-pr');
    expect(jobNameStem('smoke', 1)).toBe('smoke');
  });

  test('a long name is cut to a kept part that ends in a hex digit and differs from every other name\'s', () => {
    const names = ['smoke-aws-usw2-cpu-prod-01', 'smoke-aws-usw2-cpu-prod-02'].map(n => jobSafeMetricName(n, '-answers-json'));
    const stems = names.map(n => jobNameStem(n, 1));
    expect(new Set(stems).size).toBe(2);
    expect(stems.every(s => /[0-9a-f]$/.test(s))).toBe(true);
    expect(names.every(n => n.endsWith('-answers-json'))).toBe(true);
    // a short name is kept as it is
    expect(jobSafeMetricName('smoke', '-json')).toBe('smoke-json');
  });
});

describe('jobNameProblems', () => {
  test('job metric names that Argo Rollouts would cut into a refused or shared Job name are reported', () => {
    const guard = (name: string) => ({ name, count: 5, owner: 'v', fix: 'shorten the check name' });
    const metrics = [{ name: 'smoke-aws-usw2-cpu-prod-01', count: 1 }, { name: 'version-aws-usw2-cpu-prod-01-x', count: 5 }, { name: 'version-aws-usw2-cpu-prod-02-x', count: 5 }];
    expect(jobNameProblems([guard('version-aws-usw2-cpu-prod-01-x'), guard('smoke-aws-usw2-cpu-prod-01'), guard('ok-answers-json')], metrics)).toEqual([
      'verification "v" metric "version-aws-usw2-cpu-prod-01-x" Job name is also the Job of metric "version-aws-usw2-cpu-prod-02-x", whose result it would report, '
        + 'got "<run uid>.version-aws-usw2-cpu-pro.1"; Argo Rollouts keeps only the first 24 characters of a job metric\'s name in its Job name (metricproviders/job/job.go); shorten the check name',
      'verification "v" metric "smoke-aws-usw2-cpu-prod-01" Job name is refused by Kubernetes (a name part ends in "-"), got "<run uid>.smoke-aws-usw2-cpu-prod-.1"; '
        + 'Argo Rollouts keeps only the first 24 characters of a job metric\'s name in its Job name (metricproviders/job/job.go); shorten the check name',
    ]);
  });
});
