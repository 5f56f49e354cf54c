import { Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { applicationsUpdatedBy, expandApplicationSet } from '../support/argocd-simulation';
import { find, ofKind, synthApp, world } from '../support/fixtures';

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
