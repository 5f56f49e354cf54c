import { describe, expect, test } from 'vitest';
import { findingCodes, simulateControllers } from '../../../src/testkit';
import { CLUSTERS, lines, only } from '../../support/controller-model';
import { directStage, helmTask, IMAGE, pullRequestStage, SOURCE, syncStep, warehouse, world } from '../../support/testkit-model-fixtures';

describe('controller model: Kargo promotions', () => {
  test('fails if git-open-pr targets a branch nothing creates (first promotion)', () => {
    const findings = simulateControllers(world([pullRequestStage('prod', CLUSTERS, { target: 'rendered/never-created' })]));
    expect(only(findings, 'open-pr-target-missing')).toEqual([
      'open-pr-target-missing Stage/prod /spec/promotionTemplate/spec/steps/8: first promotion on an empty release repository: step "open-pr" (git-open-pr) Errored: target branch "rendered/never-created" does not exist; the Promotion ends Errored',
    ]);
  });

  test('fails if git-clone checks out a missing release branch without create: true', () => {
    const stage = directStage('dev', CLUSTERS);
    stage.spec.promotionTemplate.spec.steps[1].config.checkout[0].create = false;
    expect(findingCodes(simulateControllers(world([stage])))).toEqual(['git-branch-missing']);
  });

  test('fails if a no-change promotion reads the output of a Skipped git-open-pr unguarded', () => {
    const findings = simulateControllers(world([pullRequestStage('prod', CLUSTERS, { guard: false, syncRevision: "${{ outputs['wait-for-pr'].commit }}" })]));
    expect(only(findings, 'step-output-missing')).toEqual([
      'step-output-missing Stage/prod /spec/promotionTemplate/spec/steps/9: second promotion of the same Freight (nothing changed): step "wait-for-pr" (git-wait-for-pr) Errored: failed to build step context: cannot fetch pr from <nil>; the Promotion ends Errored',
    ]);
  });

  test('fails if the guarded PR waiter is followed by an unguarded read of its output', () => {
    const findings = simulateControllers(world([pullRequestStage('prod', CLUSTERS, { syncRevision: "${{ outputs['wait-for-pr'].commit }}" })]));
    expect(only(findings, 'step-output-missing')[0]).toContain('step "sync" (argocd-update) Errored: failed to build step context: cannot fetch commit from <nil>');
  });

  test('fails if helm-update-chart names an OCI chart by its full URL; passes with the registry path', () => {
    const chartWarehouse = warehouse([{ chart: { repoURL: 'oci://ghcr.io/acme/charts/shop' } }, { image: { repoURL: IMAGE } }, { git: { repoURL: SOURCE } }]);
    const update = (repository: string) => [{
      uses: 'helm-update-chart',
      as: 'update-chart',
      config: { path: './src/chart', charts: [{ repository, name: 'shop', version: "${{ quote(chartFrom('oci://ghcr.io/acme/charts/shop').Version) }}" }] },
    }];
    const broken = simulateControllers(world([directStage('dev', CLUSTERS, update('oci://ghcr.io/acme/charts/shop'))], { task: helmTask(), warehouse: chartWarehouse }));
    expect(only(broken, 'helm-dependency-not-found')[0]).toContain('step "update-chart" (helm-update-chart) Errored: no dependency in Chart.yaml matches update with repository "oci://ghcr.io/acme/charts/shop" and name "shop"');
    const fixed = simulateControllers(world([directStage('dev', CLUSTERS, update('oci://ghcr.io/acme/charts'))], { task: helmTask(), warehouse: chartWarehouse }));
    expect(lines(fixed)).toEqual([]);
    // Freight whose chart version reads as a number (4.2) breaks an unquoted version
    const unquoted = update('oci://ghcr.io/acme/charts').map(s => ({ ...s, config: { ...s.config, charts: [{ ...s.config.charts[0], version: "${{ chartFrom('oci://ghcr.io/acme/charts/shop').Version }}" }] } }));
    expect(only(simulateControllers(world([directStage('dev', CLUSTERS, unquoted)], { task: helmTask(), warehouse: chartWarehouse })), 'step-config-invalid')[0]).toContain(
      'promotion of newer Freight whose versions read as numbers (tag 1.20, chart 4.2, commits of digits): step "update-chart" (helm-update-chart) Failed: invalid helm-update-chart config: /charts/0/version: 4.2 must be string');
  });

  test('fails if a commit id is not quoted: the rare commit of digits reads as a number', () => {
    const pushed = directStage('dev', CLUSTERS);
    pushed.spec.promotionTemplate.spec.steps[8] = syncStep('dev', "${{ outputs['push'].commit }}");
    expect(only(simulateControllers(world([pushed])), 'step-config-invalid')[0]).toMatch(
      /commits of digits\): step "sync" \(argocd-update\) Failed: invalid argocd-update config: \/apps\/0\/sources\/0\/desiredRevision: [0-9.e+]+ must be string/);
    const stage = directStage('dev', CLUSTERS);
    const steps = stage.spec.promotionTemplate.spec.steps.map((s: any) => s.as !== 'clone-source' ? s
      : { ...s, config: { ...s.config, checkout: [{ ...s.config.checkout[0], commit: `\${{ commitFrom('${SOURCE}').ID }}` }] } });
    const unquoted = { ...stage, spec: { ...stage.spec, promotionTemplate: { spec: { ...stage.spec.promotionTemplate.spec, steps } } } };
    expect(only(simulateControllers(world([unquoted])), 'step-config-invalid')[0]).toMatch(
      /promotion of newer Freight whose versions read as numbers .*: step "clone-source" \(git-clone\) Failed: invalid git-clone config: \/checkout\/0\/commit: [0-9.e+]+ must be string/);
  });

  test('fails if a subscribed git repository is never checked out', () => {
    const extra = warehouse([{ image: { repoURL: IMAGE } }, { git: { repoURL: SOURCE } }, { git: { repoURL: 'https://github.com/acme/config.git' } }]);
    const findings = simulateControllers(world([directStage('dev', CLUSTERS)], { warehouse: extra }));
    expect(only(findings, 'artifact-unused')).toEqual([
      'artifact-unused Warehouse/shop /spec/subscriptions/2/git: git "https://github.com/acme/config.git" is subscribed, but no step of Stage(s) dev lets it change the rendered release (it is never checked out into a rendered path): Freight made by its new versions promotes nothing',
    ]);
  });

  test('a git repository checked out inside the chart is read by helm-template; one outside the chart is not', () => {
    const config = 'https://github.com/acme/config.git';
    const extra = warehouse([{ image: { repoURL: IMAGE } }, { git: { repoURL: SOURCE } }, { git: { repoURL: config } }]);
    const checkout = (at: string) => ({ uses: 'git-clone', as: 'clone-config', config: { repoURL: config, checkout: [{ commit: `\${{ quote(commitFrom('${config}').ID) }}`, path: at }] } });
    const inside = simulateControllers(world([directStage('dev', CLUSTERS, [checkout('./src/chart/config')])], { warehouse: extra, task: helmTask() }));
    expect(lines(inside)).toEqual([]);
    const outside = simulateControllers(world([directStage('dev', CLUSTERS, [checkout('./src/config')])], { warehouse: extra, task: helmTask() }));
    expect(only(outside, 'artifact-unused')[0]).toContain(`git "${config}" is subscribed, but no step of Stage(s) dev lets it change the rendered release`);
  });

  test('fails if an image is only named in the commit message', () => {
    const findings = simulateControllers(world([directStage('dev', CLUSTERS, [])]));
    expect(only(findings, 'artifact-unused')[0]).toContain(`image "${IMAGE}" is subscribed, but no step of Stage(s) dev`);
  });

  test('fails if ignoreMissingValueFiles can hide a required values file', () => {
    const findings = simulateControllers(world([directStage('dev', CLUSTERS, [])], { task: helmTask({ ignoreMissingValueFiles: true }) }));
    expect(only(findings, 'values-files-ignore-missing')).toEqual([
      'values-files-ignore-missing PromotionTask/render /spec/steps/0/config/ignoreMissingValueFiles: ignoreMissingValueFiles applies to all 1 values file(s) ["./src/chart/values.yaml"]: a required values file that is missing renders silently with chart defaults; keep it unset and merge only the optional files first (yaml-merge with ignoreMissingFiles)',
    ]);
  });

  test('fails if helm-template renders without the cluster\'s capabilities or drops CRDs', () => {
    const findings = simulateControllers(world([directStage('dev', CLUSTERS, [])], { task: helmTask({ kubeVersion: undefined, apiVersions: undefined, includeCRDs: undefined }) }));
    const [line] = only(findings, 'helm-template-capabilities');
    expect(line).toContain('PromotionTask/render /spec/steps/0/config: helm-template renders client-only without kubeVersion');
    expect(line).toContain('includeCRDs: true (CRDs in the chart\'s crds/ directory are dropped)');
  });

  test('fails if argocd-update keeps its 5 minute default timeout', () => {
    const stage = directStage('dev', CLUSTERS);
    stage.spec.promotionTemplate.spec.steps[8] = syncStep('dev', "${{ quote(outputs['push'].commit) }}", null);
    expect(only(simulateControllers(world([stage])), 'argocd-update-timeout-default')).toEqual([
      'argocd-update-timeout-default Stage/dev /spec/promotionTemplate/spec/steps/8/retry/timeout: argocd-update "sync" has no retry.timeout: it waits at most the 5m default for the Applications to sync, so a slow wave or a deny sync window fails the promotion',
    ]);
  });

  test('fails if an Application\'s path is never rendered', () => {
    const objects = world([directStage('dev', CLUSTERS)]);
    objects.find((o) => o.kind === 'ApplicationSet').spec.template.spec.source.path = 'clusters/{{ .name }}';
    const findings = simulateControllers(objects);
    expect(findingCodes(findings)).toEqual(['application-revision-missing']);
    expect(lines(findings)[0]).toContain('Application "shop-east" cannot sync to');
  });
});
