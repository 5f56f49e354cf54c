import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { syncWave, SyncWave } from '../contracts/sync-waves';

/** The label that marks a namespace as a Kargo Project's (`kargoapi.LabelKeyProject`). */
export const KARGO_PROJECT_LABEL = 'kargo.akuity.io/project';

/**
 * The Project's namespace, declared ahead of the Project, so that the platform's manifests apply
 * in one pass (one Argo CD sync of an Application over them, or one `kubectl apply`).
 *
 * Kargo's management controller creates a Project's namespace only after the Project exists
 * (kargo v1.11.2 `pkg/controller/management/projects/projects.go`, `reconciler.ensureNamespace`),
 * so the Stages, Warehouse and ProjectConfig that live in it fail on a first apply ("namespaces
 * not found"). A namespace declared with `kargo.akuity.io/project: "true"` is adopted
 * (`ensureNamespace` adds its finalizer) and passes Kargo's Project webhook
 * (`pkg/webhook/kubernetes/project/webhook.go`, `webhook.ensureNamespace`), which refuses an
 * existing namespace without the label. Sync wave -2, before the Project's -1: Argo CD applies
 * waves in order, and its dry run of the whole sync is client-side (gitops-engine
 * `pkg/sync/sync_context.go`, `syncContext.applyObject`: `DryRunClient`), so the objects in a
 * namespace the same sync creates pass it.
 * @internal
 */
export function defineProjectNamespace(scope: Construct, project: string, labels: Record<string, string>): void {
  new k8s.KubeNamespace(scope, 'ProjectNamespace', {
    metadata: {
      name: project,
      labels: { ...labels, [KARGO_PROJECT_LABEL]: 'true' },
      annotations: syncWave(SyncWave.PROJECT_NAMESPACE),
    },
  });
}
