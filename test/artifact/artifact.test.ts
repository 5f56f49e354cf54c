import { Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { Artifact, GitCommitSelection, ManifestSource, PlatformApp, Versioning } from '../../src';
import { simulateControllers } from '../../src/testkit';
import { define, steps } from '../support/define-app';
import { appProps, find, SMALL_FLEET, world } from '../support/fixtures';

describe('artifacts and versioning rules', () => {

  test('helm charts (https with name, oci without) and git repositories are subscribed and promoted together', () => {
    const { objects } = define(() => ({
      artifacts: [
        Artifact.image('ghcr.io/acme/api'),
        Artifact.helmChart('https://charts.example.com/stable', { name: 'redis', semver: '^19.0.0' }),
        Artifact.helmChart('oci://ghcr.io/acme/charts/api-base', { dependencyName: 'base' }),
        Artifact.git('https://github.com/acme/config.git', { selection: GitCommitSelection.SEMVER, semver: '^3.0.0', allowTags: ['^v'], includePaths: ['glob:envs/*.yaml'], excludePaths: ['docs/'], checkoutPath: 'chart/config' }),
      ],
    }));
    expect(find(objects, 'Warehouse', 'api').spec.subscriptions).toEqual([
      { image: { repoURL: 'ghcr.io/acme/api', imageSelectionStrategy: 'SemVer', strictSemvers: true, discoveryLimit: 20 } },
      { chart: { repoURL: 'https://charts.example.com/stable', name: 'redis', semverConstraint: '^19.0.0', discoveryLimit: 20 } },
      { chart: { repoURL: 'oci://ghcr.io/acme/charts/api-base', discoveryLimit: 20 } },
      { git: { repoURL: 'https://github.com/acme/config.git', commitSelectionStrategy: 'SemVer', semverConstraint: '^3.0.0', allowTagsRegexes: ['^v'], includePaths: ['glob:envs/*.yaml'], excludePaths: ['docs/'], strictSemvers: true, discoveryLimit: 20 } },
      { git: { repoURL: 'https://github.com/acme/api.git', commitSelectionStrategy: 'NewestFromBranch', branch: 'main', includePaths: ['chart'], strictSemvers: true, discoveryLimit: 20 } },
    ]);
    const update = steps(objects, 'dev').find((s: any) => s.uses === 'helm-update-chart');
    expect(update.config.charts).toEqual([
      { repository: 'https://charts.example.com/stable', name: 'redis', version: '${{ quote(chartFrom(\'https://charts.example.com/stable\', \'redis\').Version) }}' },
      // an OCI dependency names the registry path without the chart (kargo helm-update-chart.md)
      { repository: 'oci://ghcr.io/acme/charts', name: 'base', version: '${{ quote(chartFrom(\'oci://ghcr.io/acme/charts/api-base\').Version) }}' },
    ]);
    expect(find(objects, 'PromotionTask', 'render-cluster').spec.steps[0].config.buildDependencies).toBe(true);
    // the config repository is checked out at the Freight's commit inside the chart, before anything is rendered
    const all = steps(objects, 'dev');
    const checkout = all.find((s: any) => s.as === 'clone-artifact-3');
    expect(checkout).toEqual({
      uses: 'git-clone',
      as: 'clone-artifact-3',
      config: {
        repoURL: 'https://github.com/acme/config.git',
        checkout: [{ commit: '${{ quote(commitFrom(\'https://github.com/acme/config.git\').ID) }}', path: './src/chart/config' }],
      },
    });
    expect(all.indexOf(checkout)).toBeLessThan(all.findIndex((s: any) => s.task?.name === 'render-cluster'));
  });

  test('Helm renders each cluster with the app\'s API versions and the cluster\'s own', () => {
    const fleet = SMALL_FLEET.map(c => (c.name === 'gcp-dev-h100' ? { ...c, apiVersions: ['nvidia.com/v1', 'nvidia.com/v1'] } : c));
    const w = world(fleet);
    const app = new PlatformApp(w.app, 'api', appProps(w, {
      source: ManifestSource.helm({ repoUrl: 'https://github.com/acme/api.git', path: 'chart', apiVersions: ['monitoring.coreos.com/v1'] }),
    }));
    const objects = Testing.synth(app);
    const render = find(objects, 'PromotionTask', 'render-cluster').spec.steps.find((s: any) => s.uses === 'helm-template');
    expect(render.config.apiVersions).toBe('${{ split(vars.apiVersions, \',\') }}');
    const vars = (cluster: string) => steps(objects, 'dev').find((s: any) => s.as === `render-${cluster}`).vars.find((v: any) => v.name === 'apiVersions').value;
    expect(vars('gcp-dev-h100')).toBe('monitoring.coreos.com/v1,nvidia.com/v1');
    expect(vars('aws-dev-cpu')).toBe('monitoring.coreos.com/v1');
    expect(simulateControllers([...Testing.synth(w.fleet), ...objects]).map(f => `${f.code} ${f.message}`)).toEqual([]);
    // no cluster with API versions of its own: the app's list, as before
    expect(find(define().objects, 'PromotionTask', 'render-cluster').spec.steps.find((s: any) => s.uses === 'helm-template').config.apiVersions).toBeUndefined();
    expect(() => world(SMALL_FLEET.map(c => ({ ...c, apiVersions: ['nvidia.com'] })))).toThrow(
      /apiVersions must be an API version such as "monitoring.coreos.com\/v1", got "nvidia.com"; use "<group>\/<version>" or "<group>\/<version>\/<Kind>"/);
  });

  test.each<[string, () => Artifact, RegExp]>([
    ['a chart URL has the wrong scheme', () => Artifact.helmChart('ftp://charts.example.com', { name: 'x' }), /must start with https:\/\/ \(chart repository\) or oci:\/\//],
    ['an oci chart has a name', () => Artifact.helmChart('oci://ghcr.io/acme/charts/x', { name: 'x' }), /name must be omitted for oci:\/\/ repositories/],
    ['an https chart has no name', () => Artifact.helmChart('https://charts.example.com'), /name is required for https:\/\/ repositories/],
    ['a tag regex does not compile', () => Artifact.image('ghcr.io/acme/api', { allowTags: ['^v(1'] }), /allowTags regular expression does not compile .*got "\^v\(1"/],
    ['a tag regex uses lookahead', () => Artifact.image('ghcr.io/acme/api', { ignoreTags: ['^(?!v)'] }), /uses lookaround, which Go regular expressions do not support/],
    ['a git path regex does not compile', () => Artifact.git('https://github.com/acme/x.git', { includePaths: ['regex:[a-'] }), /git path filter does not compile/],
    ['a git branch is given with a tag selection', () => Artifact.git('https://github.com/acme/x.git', { selection: GitCommitSelection.NEWEST_TAG, branch: 'main' }), /branch only applies to NEWEST_FROM_BRANCH/],
    ['a git repository uses ssh', () => Artifact.git('git@github.com:acme/x.git'), /must use https \(SSH URLs are deprecated in Kargo and removed in v1.13\)/],
    ['the platform is not os/arch', () => Artifact.image('ghcr.io/acme/api', { platform: 'amd64' }), /platform must be "os\/arch", got "amd64"/],
    ['the discovery limit is out of range', () => Artifact.image('ghcr.io/acme/api', { discoveryLimit: 500 }), /discoveryLimit must be a whole number from 1 to 100, got 500/],
    ['digest versioning has no tag', () => Artifact.image('ghcr.io/acme/api', { versioning: Versioning.digest('') }), /digest versioning needs the mutable tag to track/],
  ])('fails if %s', (_, make, message) => {
    const w = world();
    expect(() => new PlatformApp(w.app, 'api', appProps(w, { artifacts: [make()] }))).toThrow(message);
  });
});
