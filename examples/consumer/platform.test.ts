import { Testing } from 'cdk8s';
import { formatIssues, ManifestValidator } from 'cdk8s-gitops-platform/testkit';
import { expect, test } from 'vitest';
import { definePlatform } from './platform';

test('the platform synthesizes valid, unchanged manifests', () => {
  const app = Testing.app();
  definePlatform(app);
  const objects = app.charts.flatMap((chart) => Testing.synth(chart));
  expect(formatIssues(ManifestValidator.load().validateObjects(objects))).toBe('');
  expect(objects).toMatchSnapshot();
});
