import { describe as group, expect, test } from 'vitest';
import { HostLanguage } from '../../src/util/host-language';

// The agents as each jsii host runtime sets JSII_AGENT for the Node process it starts (see
// src/util/host-language.ts for the function in each runtime's source).
group('HostLanguage', () => {
  test.each([
    ['Python/3.11.2', HostLanguage.PYTHON],
    ['Java/17.0.13', HostLanguage.JAVA],
    ['go1.26.0/linux/amd64', HostLanguage.GO],
    ['devel go1.27-abcdef/linux/arm64', HostLanguage.GO],
    ['DotNet/8.0.11', HostLanguage.DOTNET],
    [undefined, HostLanguage.TYPESCRIPT],
    ['', HostLanguage.TYPESCRIPT],
    ['SomethingElse/1.0', HostLanguage.TYPESCRIPT],
  ])('reads the agent %s', (agent, language) => {
    expect(HostLanguage.fromAgent(agent)).toBe(language);
  });

  test('without an agent (the test process) the program is TypeScript', () => {
    expect(process.env.JSII_AGENT).toBeUndefined();
    expect(HostLanguage.current()).toBe(HostLanguage.TYPESCRIPT);
  });

  test('using() sets the language for the call only, also when it throws', () => {
    expect(HostLanguage.using(HostLanguage.GO, () => HostLanguage.current())).toBe(HostLanguage.GO);
    expect(() => HostLanguage.using(HostLanguage.PYTHON, () => {
      throw new Error('x');
    })).toThrow('x');
    expect(HostLanguage.current()).toBe(HostLanguage.TYPESCRIPT);
    const nested = HostLanguage.using(HostLanguage.JAVA, () => HostLanguage.using(HostLanguage.DOTNET, () => HostLanguage.current()));
    expect(nested).toBe(HostLanguage.DOTNET);
    expect(HostLanguage.current()).toBe(HostLanguage.TYPESCRIPT);
  });

  test.each([
    [HostLanguage.TYPESCRIPT, 'auth.caData'],
    [HostLanguage.PYTHON, 'auth.ca_data'],
    [HostLanguage.JAVA, 'auth.caData'],
    [HostLanguage.GO, 'Auth.CaData'],
    [HostLanguage.DOTNET, 'Auth.CaData'],
  ])('names a prop path as %s does', (language, path) => {
    expect(language.propPath(['auth', 'caData'])).toBe(path);
  });

  test('an index follows its prop in every language', () => {
    expect(HostLanguage.PYTHON.propPath(['clusterResources', 0, 'kind'])).toBe('cluster_resources[0].kind');
    expect(HostLanguage.GO.propPath(['clusterResources', 0, 'kind'])).toBe('ClusterResources[0].Kind');
    expect(HostLanguage.TYPESCRIPT.propPath(['exemptions', 2, 'ruleId'])).toBe('exemptions[2].ruleId');
  });

  test('Python splits every word of a camelCase name, digits included', () => {
    expect(HostLanguage.PYTHON.propPath(['kubernetesVersion', 'roleArn', 'http2Enabled', 'repoUrl']))
      .toBe('kubernetes_version.role_arn.http2_enabled.repo_url');
  });
});
