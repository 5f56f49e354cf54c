import { describe, expect, test } from 'vitest';
import { checkPath, checkRepo } from '../../src/artifact/source-type';

describe('source checks every kind shares', () => {
  test('the repository is an https Git URL (http only when allowed) and the branch a valid branch name', () => {
    const problems: string[] = [];
    checkRepo(problems, { repoUrl: 'https://github.com/acme/api.git', branch: 'main' });
    expect(problems).toEqual([]);
    checkRepo(problems, { repoUrl: 'http://git.acme.internal/api.git', branch: 'my branch' });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^repoUrl .*got "http:\/\/git.acme.internal\/api.git"; use the https:\/\/ clone URL$/);
    expect(problems[1]).toMatch(/^branch .*got "my branch"; use a branch name such as "main"$/);
    const allowed: string[] = [];
    checkRepo(allowed, { repoUrl: 'http://git.acme.internal/api.git', allowInsecureHttp: true });
    expect(allowed).toEqual([]);
  });

  test('a path stays in the repository; where tokens are allowed they must be release variables, elsewhere none', () => {
    const problems: string[] = [];
    checkPath(problems, 'helm values file', 'values/{stage}-{region}.yaml', true);
    expect(problems).toEqual([]);
    checkPath(problems, 'helm values file', 'values/{env}.yaml', true);
    checkPath(problems, 'kustomize basePath', 'base/{stage}', false);
    checkPath(problems, 'helm path', '../chart', false);
    expect(problems).toEqual([
      'helm values file uses unknown token {env}, got "values/{env}.yaml"; use one of {stage}, {cluster}, {region}, {provider}, {accelerator}, {tier}',
      'kustomize basePath must not use tokens, got "base/{stage}"; name one path; per-stage differences go in valuesFiles or the overlay',
      'helm path must be a relative path inside the repository without "..", got "../chart"; use e.g. "charts/app"',
    ]);
  });
});
