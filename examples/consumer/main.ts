import { App } from 'cdk8s';
import { definePlatform } from './platform';

// A wrong definition is reported as its message alone, not as a stack trace.
try {
  const app = new App();
  definePlatform(app);
  app.synth();
} catch (e) {
  console.error(`synth failed: ${(e as Error).message}`);
  process.exit(1);
}
