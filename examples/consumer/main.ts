import { PlatformSynthApp } from 'cdk8s-gitops-platform';
import { definePlatform } from './platform';

// A wrong definition is reported as its message alone, not as a stack trace.
try {
  // cdk8s's App, but validates the app once instead of once per chart (see "Synthesizing large platforms")
  const app = new PlatformSynthApp();
  definePlatform(app);
  app.synth();
} catch (e) {
  console.error(`synth failed: ${(e as Error).message}`);
  process.exit(1);
}
