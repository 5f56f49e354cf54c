import * as path from 'path';
import { Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { applicationsUpdatedBy, expandApplicationSet } from './argocd-simulation';
import { defineExamples } from '../apps';
import { formatIssues, ManifestValidator } from '../src/testkit';

const validator = ManifestValidator.load();

function examples() {
  const app = Testing.app();
  const defined = defineExamples(app);
  return { app, ...defined };
}

describe('examples in apps/', () => {
  const { fleet, apps } = examples();
  const fleetObjects = Testing.synth(fleet);

  test('the fleet has at least 12 clusters over 3 providers, 3 accelerator families (with CPU-only) and 3 tiers', () => {
    const clusters = fleet.clusters;
    expect(clusters.length).toBeGreaterThanOrEqual(12);
    expect(new Set(clusters.map(c => c.provider)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(clusters.map(c => c.accelerator.name)).size).toBeGreaterThanOrEqual(3);
    expect(clusters.some(c => !c.accelerator.isAccelerated)).toBe(true);
    expect(new Set(clusters.map(c => c.tier.name))).toEqual(new Set(['dev', 'staging', 'prod']));
  });

  test('there are at least two apps with different targets', () => {
    expect(apps.length).toBeGreaterThanOrEqual(2);
    expect(new Set(apps.map(a => a.plan.clusters.join(','))).size).toBe(apps.length);
  });

  test('fleet snapshot', () => {
    expect(fleetObjects).toMatchSnapshot();
  });

  for (const app of apps) {
    describe(app.appName, () => {
      const objects = Testing.synth(app);

      test('snapshot', () => {
        expect(objects).toMatchSnapshot();
      });

      test('every object is valid against the pinned schemas', () => {
        expect(formatIssues(validator.validateObjects(objects, app.appName))).toBe('');
      });

      test('each Stage updates exactly the Applications its ApplicationSet generates, on exactly the planned clusters', () => {
        const applications = objects.filter(o => o.kind === 'ApplicationSet').flatMap(a => expandApplicationSet(a, fleetObjects));
        expect(applications.map(a => a.destination.name).sort()).toEqual(app.plan.clusters);
        for (const stage of app.plan.stages) {
          for (const wave of stage.waves) {
            const kargoStage = objects.find(o => o.kind === 'Stage' && o.metadata.name === wave.kargoStage);
            const updated = applicationsUpdatedBy(kargoStage, applications);
            expect(updated.map(u => u.app.destination.name).sort()).toEqual(wave.clusters);
            expect(updated.every(u => u.authorized && u.app.appSet === wave.applicationSet)).toBe(true);
          }
        }
      });
    });
  }

  test('the fleet objects are valid and carry no secret material', () => {
    expect(formatIssues(validator.validateObjects(fleetObjects, 'fleet'))).toBe('');
  });
});

describe('manifests/', () => {
  test('every committed manifest is valid against the pinned schemas', () => {
    const issues = validator.validateDirectory(path.join(__dirname, '..', 'manifests'));
    expect(formatIssues(issues)).toBe('');
  });
});
