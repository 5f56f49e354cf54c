import { Testing } from 'cdk8s';
import { formatIssues, ManifestValidator } from 'cdk8s-gitops-platform/testkit';
import { expect, test } from 'vitest';
import { definePlatform } from './platform';

// The first validation compiles the pinned schemas: allow more than vitest's default 5 s.
test('the platform synthesizes valid, unchanged manifests', { timeout: 30_000 }, () => {
  const app = Testing.app();
  definePlatform(app);
  const objects = app.charts.flatMap((chart) => Testing.synth(chart));
  expect(formatIssues(ManifestValidator.load().validateObjects(objects))).toBe('');
  expect(objects).toMatchSnapshot();
});
