import { Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { ClusterFleet } from '../../src';
import { CloudProvider, Tier } from '../../src/fleet/cluster-attributes';
import { ClusterAuth } from '../../src/fleet/cluster-auth';
import { clustersFromTerraformOutput } from '../../src/fleet/terraform-output';
import { errorOf } from '../support/fixtures';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIC\n-----END CERTIFICATE-----\n';

/** The error of a GKE cluster defined in code with this CA (none: undefined). */
function inCode(caData: string | undefined): string {
  return errorOf(() => new ClusterFleet(Testing.app(), 'fleet', {
    clusters: [{ name: 'c1', server: 'https://c1.example.com', provider: CloudProvider.GCP, region: 'europe-west4', tier: Tier.DEV, auth: ClusterAuth.gke(caData === undefined ? {} : { caData }) }],
  }));
}

/** The error of the same cluster read from `terraform output -json`. */
function fromTerraform(caData: string | undefined): string {
  const value = [{ name: 'c1', endpoint: 'https://c1.example.com', provider: 'gcp', region: 'europe-west4', tier: 'dev', ca_data: caData, auth: { type: 'gke' } }];
  return errorOf(() => clustersFromTerraformOutput(JSON.stringify({ clusters: { value } }), { source: 'clusters.json' }));
}

describe('one CA rule for clusters in code and from terraform output', () => {
  test.each([
    ['is missing', undefined, 'is required for provider "gcp" with the central Argo CD: its API server\'s certificate is signed by the cluster\'s own CA, got nothing'],
    ['is a raw PEM', PEM, 'must be base64-encoded, but is a raw PEM, got "-----BEGIN CERTIFICATE-----'],
    ['is not base64', 'not base64!', 'must be a base64-encoded PEM certificate, got "not base64!"'],
  ])('fails with the same problem if the CA %s', (_, caData, problem) => {
    expect(inCode(caData)).toContain(`caData ${problem}`);
    expect(fromTerraform(caData)).toContain(`ca_data ${problem}`);
  });
});
