import { describe, expect, test } from 'vitest';
import { Artifact, PlatformAppProps, Verification, VerificationArg } from '../../src';
import { define } from '../support/define-app';

describe('checkArgArtifacts', () => {
  test.each<[string, Partial<PlatformAppProps>, RegExp]>([
    ['a verification arg reads an image the app does not subscribe to', {
      verification: [Verification.job({ name: 'smoke', image: 'ghcr.io/acme/smoke:{{args.version}}', args: { version: VerificationArg.imageTag('ghcr.io/acme/other') } })],
    }, /check "smoke" \(stage "dev"\) args.version reads the image of the Freight being verified, but the app does not subscribe to it, so Kargo's imageFrom\(\) fails and every verification errors, got "ghcr.io\/acme\/other"; add it to the app's artifacts, or pass another arg/],
    ['a verification arg reads a git repository the app does not subscribe to', {
      verification: [Verification.job({ name: 'smoke', image: 'ghcr.io/acme/smoke:1', args: { sha: VerificationArg.commit('https://github.com/acme/other.git') } })],
    }, /args.sha reads the git repository of the Freight being verified, but the app does not subscribe to it, so Kargo's commitFrom\(\) fails/],
  ])('fails if %s', (_, props, message) => {
    expect(() => define(() => props)).toThrow(message);
  });

  test('an arg reading an artifact the app subscribes to, the source repository included, is fine', () => {
    expect(() => define(() => ({
      artifacts: [Artifact.image('ghcr.io/acme/api')],
      verification: [Verification.job({
        name: 'smoke',
        image: 'ghcr.io/acme/smoke:1',
        args: { version: VerificationArg.imageTag('ghcr.io/acme/api'), sha: VerificationArg.commit('https://github.com/Acme/api') },
      })],
    }))).not.toThrow();
  });
});
