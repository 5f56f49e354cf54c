import { App } from 'cdk8s';
import { defineExamples } from './index';
import { PlatformReport } from '../src';

// Definition errors are for people, not stack traces: print the message and fail.
try {
  const app = new App();
  defineExamples(app);
  app.synth();
  PlatformReport.write(app);
} catch (e) {
  console.error(`synth failed: ${(e as Error).message}`);
  process.exit(1);
}
