import { defineExamples } from './index';
import { PlatformReport, PlatformSynthApp } from '../src';

// Definition errors are for people, not stack traces: print the message and fail.
try {
  // validates and resolves the app once, not once per chart it writes
  const app = new PlatformSynthApp();
  defineExamples(app);
  app.synth();
  PlatformReport.write(app);
} catch (e) {
  console.error(`synth failed: ${(e as Error).message}`);
  process.exit(1);
}
