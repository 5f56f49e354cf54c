import { Testing } from 'cdk8s';
import { expect } from 'vitest';
import { appProps, find, world } from './fixtures';
import { PlatformApp } from '../../src';
import { formatIssues, ManifestValidator } from '../../src/testkit';

export const validator = ManifestValidator.load();

export function define(overrides: (w: ReturnType<typeof world>) => any = () => ({})) {
  const w = world();
  const app = new PlatformApp(w.app, 'api', appProps(w, overrides(w)));
  const objects = Testing.synth(app);
  expect(formatIssues(validator.validateObjects(objects))).toBe('');
  return { app, objects, w };
}

export const steps = (objects: any[], stage: string) => find(objects, 'Stage', stage).spec.promotionTemplate.spec.steps;
