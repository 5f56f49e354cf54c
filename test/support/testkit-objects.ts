import { expect } from 'vitest';
import { formatIssues, ManifestIssue, ManifestValidator } from '../../src/testkit';

// Checks against upstream material outside the project (Kargo's quickstart, the pinned CRD
// directory) are in .ci/upstream-checks.ts, which CI runs when shared/ sits beside the clone.
export const KARGO = 'kargo.akuity.io/v1alpha1';

export const ARGO = 'argoproj.io/v1alpha1';

export const NS = 'demo';

export const validator = ManifestValidator.load();

export function issuesOf(...objects: any[]): ManifestIssue[] {
  return validator.validateObjects(objects);
}

/** `<path>: <message>` lines, the shape most assertions read best in. */
export function linesOf(...objects: any[]): string[] {
  return issuesOf(...objects).map((i) => `${i.path}: ${i.message}`);
}

export function expectClean(...objects: any[]): void {
  expect(formatIssues(issuesOf(...objects))).toBe('');
}

export function project(extra: Record<string, unknown> = {}): any {
  return { apiVersion: KARGO, kind: 'Project', metadata: { name: NS }, ...extra };
}

export function stage(spec: Record<string, unknown> = {}, name = 'test'): any {
  return {
    apiVersion: KARGO,
    kind: 'Stage',
    metadata: { name, namespace: NS },
    spec: {
      requestedFreight: [{ origin: { kind: 'Warehouse', name: 'demo' }, sources: { direct: true } }],
      ...spec,
    },
  };
}

export function stageWithSteps(steps: unknown[]): any {
  return stage({ promotionTemplate: { spec: { steps } } });
}

export function promotionTask(steps: unknown[]): any {
  return { apiVersion: KARGO, kind: 'PromotionTask', metadata: { name: 'promote', namespace: NS }, spec: { steps } };
}

export function warehouse(subscriptions: unknown[]): any {
  return { apiVersion: KARGO, kind: 'Warehouse', metadata: { name: 'demo', namespace: NS }, spec: { subscriptions } };
}

export function projectConfig(spec: Record<string, unknown>, name = NS): any {
  return { apiVersion: KARGO, kind: 'ProjectConfig', metadata: { name, namespace: NS }, spec };
}

export function applicationSet(spec: Record<string, unknown> = {}, annotations: Record<string, string> = {}): any {
  return {
    apiVersion: ARGO,
    kind: 'ApplicationSet',
    metadata: { name: 'demo', namespace: 'argocd' },
    spec: {
      generators: [{ list: { elements: [{ stage: 'test' }] } }],
      template: {
        metadata: { name: 'demo-{{stage}}', annotations: { 'kargo.akuity.io/authorized-stage': 'demo:{{stage}}', ...annotations } },
        spec: {
          project: 'default',
          source: { repoURL: 'https://github.com/acme/gitops.git', targetRevision: 'stage/{{stage}}', path: '.' },
          destination: { server: 'https://kubernetes.default.svc', namespace: 'demo-{{stage}}' },
        },
      },
      ...spec,
    },
  };
}

export function application(authorizedStage: string): any {
  return {
    apiVersion: ARGO,
    kind: 'Application',
    metadata: { name: 'demo-test', namespace: 'argocd', annotations: { 'kargo.akuity.io/authorized-stage': authorizedStage } },
    spec: {
      project: 'default',
      source: { repoURL: 'https://github.com/acme/gitops.git', targetRevision: 'stage/test', path: '.' },
      destination: { server: 'https://kubernetes.default.svc', namespace: 'demo-test' },
    },
  };
}

export function clusterSecret(config: unknown): any {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'Opaque',
    metadata: { name: 'cluster-eu-1', namespace: 'argocd', labels: { 'argocd.argoproj.io/secret-type': 'cluster' } },
    stringData: { name: 'eu-1', server: 'https://10.0.0.1', config: JSON.stringify(config) },
  };
}
