import { Testing } from 'cdk8s';
import { formatIssues, ManifestValidator } from 'cdk8s-gitops-platform/testkit';
import { definePlatform } from './platform';

// The first validation compiles the pinned schemas: allow more than jest's default 5 s.
test('the platform synthesizes valid, unchanged manifests', () => {
  const app = Testing.app();
  definePlatform(app);
  const objects: any[] = [];
  for (const chart of app.charts) objects.push(...Testing.synth(chart));
  expect(formatIssues(ManifestValidator.load().validateObjects(objects))).toBe('');
  expect(objects).toMatchSnapshot();
}, 30_000);
