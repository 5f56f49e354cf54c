import { describe, expect, test } from 'vitest';
import {
  chartVersion, commitId, commitIdOf, expr, imageDigest, imageTag, literal, output, outputOf, textExpr, textVariable, variable,
} from '../../src/contracts/expressions';
import { evaluateTemplate } from '../../src/testkit/model/template';

// Evaluated with the test kit's model of Kargo's templates (kargo v1.11.2 json_templates.go EvaluateTemplate)
const freight = {
  imageFrom: (url: unknown) => ({ Tag: url === 'ghcr.io/acme/api' ? '1.10' : 'x', Digest: 'sha256:abc' }),
  commitFrom: () => ({ ID: '1234567' }),
  chartFrom: (_url: unknown, name?: unknown) => ({ Version: name === 'redis' ? '4.2' : '1.0' }),
};
const evaluate = (template: string, env: Record<string, unknown> = {}) => evaluateTemplate(template, env, freight);

describe('Kargo expressions', () => {
  test('a Freight value as a whole field stays text, though it reads as a number (a tag 1.10, an all-digit commit, a chart 4.2)', () => {
    // the trap textExpr() avoids: Kargo turns a lone expression that reads as a number into one
    expect(evaluate(expr("imageFrom('ghcr.io/acme/api').Tag"))).toBe(1.1);
    expect(evaluate(imageTag('ghcr.io/acme/api'))).toBe('1.10');
    expect(evaluate(commitId('https://github.com/acme/api.git'))).toBe('1234567');
    expect(evaluate(chartVersion('https://charts.example.com', 'redis'))).toBe('4.2');
    expect(evaluate(imageDigest('ghcr.io/acme/api'))).toBe('sha256:abc');
  });

  test('a variable as a whole field stays text; inside a longer text it is the bare value', () => {
    const env = { vars: { kubeVersion: '1.30', cluster: 'gcp-1' } };
    expect(evaluate(textVariable('kubeVersion'), env)).toBe('1.30');
    expect(evaluate(`./out/${variable('cluster')}/manifests.yaml`, env)).toBe('./out/gcp-1/manifests.yaml');
    expect(evaluate(`render for ${expr(commitIdOf('https://github.com/acme/api.git'))}`)).toBe('render for 1234567');
  });

  test('a literal survives quotes and backslashes; an output of an earlier step reads by its alias', () => {
    expect(evaluate(expr(literal("it's a \\ path")))).toBe("it's a \\ path");
    expect(evaluate(output('open-pr', 'pr.id'), { outputs: { 'open-pr': { pr: { id: 7 } } } })).toBe(7);
    expect(evaluate(textExpr(`${outputOf('push', 'commit')}`), { outputs: { push: { commit: '0042' } } })).toBe('0042');
  });
});
