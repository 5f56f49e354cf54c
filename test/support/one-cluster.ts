import { Testing } from 'cdk8s';
import { managedAuth } from './fixtures';
import { ClusterFleet, ClusterOptions, CloudProvider, Tier } from '../../src';

/** One AWS dev cluster, as the central Argo CD reaches it. */
export const base: ClusterOptions = { name: 'c1', server: 'https://c1.example.com', provider: CloudProvider.AWS, region: 'us-east-1', tier: Tier.DEV, auth: managedAuth(CloudProvider.AWS, 'c1') };

/** A fleet of `clusters` and its synthesized objects. */
export function fleetOf(...clusters: ClusterOptions[]) {
  const app = Testing.app();
  const fleet = new ClusterFleet(app, 'fleet', { clusters });
  return { fleet, objects: Testing.synth(fleet) };
}
