import { App } from 'cdk8s';
import { defineExamples } from './index';

// Definition errors are for people, not stack traces: print the message and fail.
try {
  const app = new App();
  defineExamples(app);
  app.synth();
} catch (e) {
  console.error(`synth failed: ${(e as Error).message}`);
  process.exit(1);
}
