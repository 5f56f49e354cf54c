import { readFileSync } from 'fs';
import { defineE2ePlatform, E2eEnvironment } from './platform';
import { PlatformSynthApp } from '../../src';

// usage: CDK8S_OUTDIR=<dir> tsx e2e/platform/main.ts <environment.json>
try {
  const env: E2eEnvironment = JSON.parse(readFileSync(process.argv[2], 'utf8'));
  const app = new PlatformSynthApp();
  defineE2ePlatform(app, env);
  app.synth();
} catch (e) {
  console.error(`synth failed: ${(e as Error).message}`);
  process.exit(1);
}
