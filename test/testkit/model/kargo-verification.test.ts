import { describe, expect, test } from 'vitest';
import { simulateControllers } from '../../../src/testkit';
import { CLUSTERS, lines, only } from '../../support/controller-model';
import { directStage, IMAGE, NS, world } from '../../support/testkit-model-fixtures';

describe('controller model: Kargo starting a verification', () => {
  const template = (name: string, metrics: string[], args: unknown[] = [{ name: 'version' }]) => ({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'AnalysisTemplate',
    metadata: { name, namespace: NS },
    spec: { args, metrics: metrics.map((m) => ({ name: m, provider: { job: { spec: { template: { spec: { containers: [] } } } } } })) },
  });
  const verified = (templates: string[], args: unknown[]) => {
    const stage = directStage('dev', CLUSTERS);
    stage.spec.verification = { analysisTemplates: templates.map((name) => ({ name })), args };
    return stage;
  };
  const run = (stage: any, ...templates: any[]) => simulateControllers([...world([stage]), ...templates]);
  const quoted = { name: 'version', value: `\${{ quote(imageFrom('${IMAGE}').Tag) }}` };

  test('a quoted tag, declared and resolved arguments, distinct metrics: no findings', () => {
    expect(lines(run(verified(['smoke', 'latency'], [quoted]), template('smoke', ['east']), template('latency', ['p99'], [{ name: 'version' }, { name: 'window', value: '5m' }])))).toEqual([]);
  });

  test('fails if an unquoted tag can read as a number', () => {
    const findings = run(verified(['smoke'], [{ name: 'version', value: `\${{ imageFrom('${IMAGE}').Tag }}` }]), template('smoke', ['east']));
    expect(lines(findings)).toEqual([
      'verification-arg-not-string Stage/dev /spec/verification/args/0/value: evaluated argument "version" value is not a string but float64 (1.2); wrap the expression in quote(): the verification errors before any check runs',
    ]);
  });

  test('fails if a job metric\'s Job name, cut to 63 characters, is invalid or shared', () => {
    const jobs = (names: string[]) => template('smoke', names, []);
    // 36 (uid) + 2 dots + 1 digit leave 24 characters of the metric name
    expect(lines(run(verified(['smoke'], []), jobs(['smoke-aws-use1-cpu-prod-01', 'smoke-aws-use1-c-10e173c'])))).toEqual([
      'job-name-invalid Stage/dev /spec/verification/analysisTemplates: job metric "smoke-aws-use1-cpu-prod-01" runs measurement 1 as Job "<run uid>.smoke-aws-use1-cpu-prod-.1", which is not a valid name: Kubernetes refuses the Job and the measurement errors',
    ]);
    expect(only(run(verified(['smoke'], []), jobs(['smoke-aws-use1-cpu-prodx-01', 'smoke-aws-use1-cpu-prodx-02'])), 'job-name-shared')).toEqual([
      'job-name-shared Stage/dev /spec/verification/analysisTemplates: job metrics "smoke-aws-use1-cpu-prodx-01" and "smoke-aws-use1-cpu-prodx-02" both run measurement 1 as Job "<run uid>.smoke-aws-use1-cpu-prodx.1": one reports the other\'s result',
      'job-name-shared Stage/dev /spec/verification/analysisTemplates: job metrics "smoke-aws-use1-cpu-prodx-02" and "smoke-aws-use1-cpu-prodx-01" both run measurement 1 as Job "<run uid>.smoke-aws-use1-cpu-prodx.1": one reports the other\'s result',
    ]);
  });

  test('fails if two templates share a metric name, or an argument is undeclared or unresolved; a template installed outside is not judged', () => {
    expect(lines(run(verified(['installed-by-the-platform'], [quoted, { name: 'anything', value: 'x' }])))).toEqual([]);
    expect(only(run(verified(['a', 'b'], [quoted]), template('a', ['east']), template('b', ['east'])), 'verification-templates-conflict')).toEqual([
      'verification-templates-conflict Stage/dev /spec/verification/analysisTemplates: the AnalysisTemplates of the verification cannot be combined into one AnalysisRun (duplicate metric name: "east"): every verification of the Stage errors',
    ]);
    expect(only(run(verified(['smoke'], [quoted, { name: 'region', value: 'eu' }]), template('smoke', ['east'])), 'verification-arg-undeclared')).toEqual([
      'verification-arg-undeclared Stage/dev /spec/verification/args/1: argument "region" is declared by none of the verification\'s AnalysisTemplates (version): Kargo drops it and the checks never see it',
    ]);
    expect(only(run(verified(['smoke'], []), template('smoke', ['east'])), 'verification-arg-unresolved')).toEqual([
      'verification-arg-unresolved Stage/dev /spec/verification/args: unresolved argument "version": neither the Stage nor its AnalysisTemplates give it a value or valueFrom, so the verification errors',
    ]);
  });
});
