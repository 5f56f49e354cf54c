import { Construct } from 'constructs';
import { PlatformAppProps } from '../src';
import { checkoutApi } from './checkout-api';
import { docsPreview } from './docs-preview';
import { guestbook } from './guestbook';
import { inferenceGateway } from './inference-gateway';
import { modelServer } from './model-server';
import { definePlatform, PlatformOptions } from './platform';
import { storefront } from './storefront';
import { telemetryAgent } from './telemetry-agent';

/** The example apps, by name. */
export const EXAMPLE_APPS = {
  'inference-gateway': inferenceGateway,
  'checkout-api': checkoutApi,
  'model-server': modelServer,
  'telemetry-agent': telemetryAgent,
  'docs-preview': docsPreview,
  'storefront': storefront,
  'guestbook': guestbook,
};

/**
 * Options for the whole example.
 */
export interface ExampleOptions extends PlatformOptions {
  /** Changes to one app's props, by app name (tests use it to change one field of one app). */
  readonly overrides?: Record<string, Partial<PlatformAppProps>>;
}

/**
 * Defines the whole example: the platform (fleet, pipelines, standards), then every app on it.
 */
export function defineExamples(scope: Construct, options: ExampleOptions = {}) {
  const platform = definePlatform(scope, options);
  const apps = Object.entries(EXAMPLE_APPS).map(([name, define]) => define(scope, platform, options.overrides?.[name]));
  return { ...platform, apps };
}
