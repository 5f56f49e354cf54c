import { Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import {
  applicationLabels, applicationName, applicationSetName, authorizedStage, perClusterChartId, releaseBranch, verificationTemplateName,
} from '../../src/contracts/release-names';
import { labelValueProblem } from '../../src/util/names';
import { applicationsUpdatedBy, expandApplicationSet } from '../support/argocd-simulation';
import { find, ofKind, synthApp } from '../support/fixtures';

describe('applicationLabels: what the Kargo Stages select is what the ApplicationSets label', () => {
  test('every Stage updates exactly the Applications of its wave, and each authorizes it', () => {
    const { objects, world: w, app } = synthApp();
    const secrets = Testing.synth(w.fleet);
    const applications = ofKind(objects, 'ApplicationSet').flatMap(a => expandApplicationSet(a, secrets));
    for (const stage of app.plan.stages) {
      for (const wave of stage.waves) {
        const updated = applicationsUpdatedBy(find(objects, 'Stage', wave.kargoStage), applications);
        expect(updated.map(u => u.app.destination.name).sort()).toEqual(wave.clusters);
        expect(updated.every(u => u.authorized)).toBe(true);
        expect(updated.every(u => u.app.appSet === wave.applicationSet)).toBe(true);
      }
    }
    expect(applications.map(a => a.name).sort()).toEqual(app.plan.clusters.map(c => `api-${c}`));
  });
});

describe('release names', () => {
  test('an app\'s Application per cluster, and per stage when stages share a cluster in namespaces of their own', () => {
    expect(applicationName('api', 'gcp-dev-h100')).toBe('api-gcp-dev-h100');
    expect(applicationName('api', 'gcp-dev-h100', 'uat')).toBe('api-uat-gcp-dev-h100');
    // the ApplicationSet template names a cluster by placeholder
    expect(applicationName('api', '{{ .name }}', 'uat')).toBe('api-uat-{{ .name }}');
    expect([applicationSetName('api'), applicationSetName('api', 'uat')]).toEqual(['api', 'api-uat']);
  });

  test('what a Kargo Stage renders, checks and authorizes is named after it', () => {
    expect(releaseBranch('api', 'prod-canary')).toBe('rendered/api/prod-canary');
    expect(verificationTemplateName('prod-canary')).toBe('prod-canary-verification');
    expect(authorizedStage('api', 'prod-canary')).toBe('api:prod-canary');
    expect(perClusterChartId('api', 'oci-fra-1')).toBe('api--oci-fra-1');
  });

  test('the Application labels are valid label values for any app, stage and Kargo Stage name', () => {
    const labels = applicationLabels('a'.repeat(53), 'p'.repeat(63), 'k'.repeat(63));
    expect(Object.values(labels).map(labelValueProblem)).toEqual([undefined, undefined, undefined]);
    expect(Object.keys(labels)).toEqual(['gitops-platform.io/app', 'gitops-platform.io/pipeline-stage', 'gitops-platform.io/stage']);
  });
});
