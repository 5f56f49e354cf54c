import { describe, expect, test } from 'vitest';
import { Artifact, GitCommitSelection, ManifestSource } from '../../src';
import { ReachContext } from '../../src/artifact/artifact-type';
import { sourceSubscription } from '../../src/artifact/manifest-source';
import { ProblemList } from '../../src/util/errors';
import { HostLanguage } from '../../src/util/host-language';

const helm = ManifestSource.helm({ repoUrl: 'https://github.com/acme/api.git', path: 'chart', branch: 'release' });

function check(artifacts: Artifact[], source: ManifestSource = helm): ProblemList {
  const problems = new ProblemList('test');
  const own = artifacts.find(a => a._type.isSourceRepository(source.repoUrl))?._type;
  const ctx: ReachContext = { ...source._type.reach, own, dependencies: new Map(), checkouts: [] };
  artifacts.forEach((a, i) => a._type.checkReach(problems, i, ctx));
  return problems;
}

describe('git artifact', () => {
  test('fails if a path filter is one Kargo refuses: glob: by doublestar, regex: by Go regexp', () => {
    const problems = (filter: string) => Artifact.git('https://github.com/acme/config.git', { includePaths: [filter] })._problems;
    expect(problems('glob:charts/**/*.yaml')).toEqual([]);
    expect(problems('glob:charts/{a,b}/[v]*')).toEqual([]);
    expect(problems('glob:charts/[a')).toEqual(['git path filter is refused by Kargo\'s glob matcher, doublestar v4.9.2 (syntax error in pattern), '
      + 'got "glob:charts/[a"; close every [ and {, e.g. "glob:charts/**/*.yaml"']);
    expect(problems('glob:charts/{a,b')).toHaveLength(1);
    expect(problems('regexp:^charts/(a')).toEqual([expect.stringMatching(/^git path filter does not compile as a Go regular expression \(missing closing \)/)]);
    // a filter without a prefix is a base directory: nothing to parse
    expect(problems('charts/[a')).toEqual([]);
  });

  test('is checked out into the source checkout only where checkoutPath puts it', () => {
    expect(Artifact.git('https://github.com/acme/config.git')._type.gitClone!(1)).toEqual([]);
    const [step] = Artifact.git('https://github.com/acme/config.git', { checkoutPath: './chart/config/' })._type.gitClone!(2);
    expect(step).toMatchObject({ uses: 'git-clone', as: 'clone-artifact-2', config: { repoURL: 'https://github.com/acme/config.git', checkout: [{ path: './src/chart/config' }] } });
  });

  test('subscribes as Kargo compares Git URLs: without case, trailing slash and .git', () => {
    expect(Artifact.git('https://GitHub.com/acme/Config.git/')._type.subscriptionIdentity).toBe(Artifact.git('https://github.com/acme/config')._type.subscriptionIdentity);
  });

  test('the source repository, when no artifact names it, is the newest commit of its branch touching its paths', () => {
    expect(sourceSubscription(helm).subscription()).toEqual({
      git: { repoURL: 'https://github.com/acme/api.git', commitSelectionStrategy: GitCommitSelection.NEWEST_FROM_BRANCH, branch: 'release', includePaths: ['chart'] },
    });
  });

  test('fails if a Helm source would not read the checkout', () => {
    expect(() => check([Artifact.git('https://github.com/acme/config.git', { checkoutPath: 'config' })]).throwIfAny())
      .toThrow('artifacts[0] (git https://github.com/acme/config.git) checkoutPath lies outside the chart directory "chart", the only directory helm-template reads, '
        + 'got "config"; use a directory inside it, e.g. "chart/config"');
  });

  test('a Kustomize source reads a checkout anywhere outside its own directories', () => {
    const kustomize = ManifestSource.kustomize({ repoUrl: 'https://github.com/acme/api.git', basePath: 'deploy/base', overlayPath: 'deploy/stages/{stage}' });
    expect(check([Artifact.git('https://github.com/acme/config.git', { checkoutPath: 'config' })], kustomize).size).toBe(0);
    expect(() => check([Artifact.git('https://github.com/acme/config.git', { checkoutPath: 'deploy' })], kustomize).throwIfAny())
      .toThrow(/checkoutPath would replace the source's own directory "deploy\/base", got "deploy"/);
  });

  test('fails if the source repository itself is given a checkout path', () => {
    expect(() => check([Artifact.git('https://github.com/acme/api.git', { branch: 'release', checkoutPath: 'chart/x' })]).throwIfAny())
      .toThrow(/checkoutPath is set on the source repository, which every render checks out whole, got "chart\/x"; remove checkoutPath/);
  });

  test.each([
    [HostLanguage.TYPESCRIPT, 'git repoUrl', 'allowInsecureHttp: true'],
    [HostLanguage.PYTHON, 'git repo_url', 'allow_insecure_http: True'],
    [HostLanguage.JAVA, 'git repoUrl', 'allowInsecureHttp: true'],
    [HostLanguage.GO, 'git RepoUrl', 'AllowInsecureHttp: jsii.Bool(true)'],
    [HostLanguage.DOTNET, 'git RepoUrl', 'AllowInsecureHttp: true'],
  ])('fails if a git URL is http://, naming the field and the option to accept it in %s', (language, name, option) => {
    expect(HostLanguage.using(language, () => Artifact.git('http://git.acme.example/acme/config.git')._problems)).toEqual([
      `${name} must use https: http:// sends the repository content, and Kargo its credentials, in clear text `
      + `(set ${option} to accept it for a repository on a trusted network), got "http://git.acme.example/acme/config.git"; use the https:// clone URL`,
    ]);
  });

  test('names an artifact\'s checkout path per language, also where it points to another artifact', () => {
    const artifacts = [Artifact.git('https://github.com/acme/api.git', { branch: 'release', checkoutPath: 'chart/x' })];
    expect(() => HostLanguage.using(HostLanguage.PYTHON, () => check(artifacts).throwIfAny()))
      .toThrow('artifacts[0] (git https://github.com/acme/api.git) checkout_path is set on the source repository, which every render checks out whole, '
        + 'got "chart/x"; remove checkout_path');
  });
});
