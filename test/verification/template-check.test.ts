import { describe, expect, test } from 'vitest';
import { Verification, VerificationArg } from '../../src/verification';
import { expectValid, render } from '../support/verification-fixtures';

describe('Verification.fromTemplate', () => {
  test('references an AnalysisTemplate or a ClusterAnalysisTemplate; nothing is generated', () => {
    const rendered = render([
      Verification.fromTemplate('integration-tests', { args: { commit: VerificationArg.commit('https://github.com/acme/gateway.git') } }),
      Verification.fromTemplate('load-test', { clusterScoped: true, args: { target: VerificationArg.value('https://gateway.{stage}.example.com') } }),
    ]);
    expectValid(rendered);
    expect(rendered.templates).toEqual([]);
    expect(rendered.stageVerification).toMatchSnapshot();
    expect(rendered.stageVerification.analysisTemplates).toEqual([
      { name: 'integration-tests', kind: 'AnalysisTemplate' },
      { name: 'load-test', kind: 'ClusterAnalysisTemplate' },
    ]);
    expect(rendered.stageVerification.args).toEqual([
      { name: 'commit', value: '${{ quote(commitFrom(\'https://github.com/acme/gateway.git\').ID) }}' },
      { name: 'target', value: 'https://gateway.prod.example.com' },
    ]);
  });
});
