import { expect } from 'vitest';
import { formatIssues, ManifestValidator } from '../../src/testkit';
import { Verification } from '../../src/verification';
import { renderVerification, VerificationContext, verificationProblems, VerificationTarget } from '../../src/verification/render';

export const CLUSTERS: VerificationTarget[] = [
  { name: 'gcp-usc1-h100-prod-01', region: 'us-central1', provider: 'gcp', accelerator: 'nvidia-h100', tier: 'prod' },
  { name: 'azr-eus-mi300x-prod-01', region: 'eastus', provider: 'azure', accelerator: 'amd-mi300x', tier: 'prod' },
];

export const CTX: VerificationContext = { app: 'gateway', project: 'gateway', kargoStage: 'prod-canary', pipelineStage: 'prod', namespace: 'gateway', clusters: CLUSTERS };

export const GATEWAY_IMAGE = 'ghcr.io/acme/gateway';

export function render(checks: Verification[], ctx: Partial<VerificationContext> = {}) {
  return renderVerification(checks, { ...CTX, ...ctx });
}

/** Every generated template, and a Stage carrying the verification, checked by the test kit. */
export function expectValid(rendered: ReturnType<typeof render>) {
  const templates = rendered.templates.map(t => ({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'AnalysisTemplate',
    metadata: { name: t.name, namespace: CTX.project, labels: t.labels },
    spec: t.spec,
  }));
  const stage = {
    apiVersion: 'kargo.akuity.io/v1alpha1',
    kind: 'Stage',
    metadata: { name: CTX.kargoStage, namespace: CTX.project },
    spec: {
      requestedFreight: [{ origin: { kind: 'Warehouse', name: CTX.app }, sources: { stages: ['staging'] } }],
      verification: rendered.stageVerification,
    },
  };
  const issues = ManifestValidator.load().validateObjects([...templates, stage]);
  expect(formatIssues(issues)).toBe('');
  expect(rendered.problems).toEqual([]);
}

export function problemsOf(...checks: Verification[]): string[] {
  return verificationProblems(checks);
}

export const health = () => Verification.http({ name: 'health', url: 'https://gateway.{cluster}.example.com/healthz' });
