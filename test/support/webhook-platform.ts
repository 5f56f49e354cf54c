import { Duration, Testing } from 'cdk8s';
import { SMALL_FLEET, standardPipeline } from './fixtures';
import { ClusterFleet, WebhookReceiver } from '../../src';

/** The platform's GitHub receiver, covering acme's repositories and images, declared ready. */
export const GITHUB = WebhookReceiver.github({ name: 'github-acme', secretName: 'kargo-webhook-github', repoUrls: ['https://github.com/acme/', 'ghcr.io/acme/'], ready: true });

/** The small fleet and the standard pipeline, with the platform's receivers and fallback interval. */
export function platform(receivers: WebhookReceiver[] | undefined, fallback?: Duration) {
  const app = Testing.app();
  const fleet = new ClusterFleet(app, 'fleet', { clusters: SMALL_FLEET, webhookReceivers: receivers, discoveryFallbackInterval: fallback });
  const pipeline = standardPipeline(app);
  return { app, fleet, pipeline };
}
