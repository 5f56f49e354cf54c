import { Construct } from 'constructs';
import { checkoutApi } from './checkout-api';
import { docsPreview } from './docs-preview';
import { inferenceGateway } from './inference-gateway';
import { modelServer } from './model-server';
import { definePlatform, PlatformOptions } from './platform';
import { telemetryAgent } from './telemetry-agent';

/**
 * Defines the whole example: the platform (fleet, pipelines, standards), then every app on it.
 */
export function defineExamples(scope: Construct, options: PlatformOptions = {}) {
  const platform = definePlatform(scope, options);
  const apps = [
    inferenceGateway(scope, platform),
    checkoutApi(scope, platform),
    modelServer(scope, platform),
    telemetryAgent(scope, platform),
    docsPreview(scope, platform),
  ];
  return { ...platform, apps };
}
