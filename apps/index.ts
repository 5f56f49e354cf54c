import { Construct } from 'constructs';
import { checkoutApi } from './checkout-api';
import { inferenceGateway } from './inference-gateway';
import { definePlatform } from './platform';

/**
 * Defines the whole example: the platform (fleet and pipeline), then every app on it.
 */
export function defineExamples(scope: Construct) {
  const platform = definePlatform(scope);
  const apps = [
    inferenceGateway(scope, platform),
    checkoutApi(scope, platform),
  ];
  return { ...platform, apps };
}
