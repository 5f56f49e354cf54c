import { ApiObject, Duration } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { WebhookReceiver } from './webhook-receiver';
import { call, hint, num, prop, shorthand } from '../util/code-hint';
import { duplicates } from '../util/collections';
import { describe, ProblemList, reportValue } from '../util/errors';

/**
 * The name Kargo reads its cluster-wide configuration from: its admission webhook refuses any
 * other (Kargo v1.11.2 pkg/api/cluster_config.go, `ClusterConfigName`;
 * pkg/webhook/kubernetes/clusterconfig/webhook.go, `validateCreateOrUpdate`).
 * @internal
 */
export const CLUSTER_CONFIG_NAME = 'cluster';

/**
 * Where Kargo reads the Secrets of cluster-level receivers: the management controller's
 * `SYSTEM_RESOURCES_NAMESPACE`, `kargo-system-resources` unless the installation sets another
 * (Kargo v1.11.2 cmd/controlplane/management_controller.go; pkg/controller/management/
 * clusterconfigs/cluster_configs.go passes it to `external.NewReceiver`).
 * @internal
 */
export const SYSTEM_RESOURCES_NAMESPACE = 'kargo-system-resources';

/**
 * The Secret of a receiver declared with `secretSource`, written without its key: the system
 * named there merges the shared secret in (an ExternalSecret with `creationPolicy: Merge`), as for
 * repository credentials. Kargo reads it by name from `namespace` (receiver.go, `NewReceiver`);
 * until the key is there the config is not Ready, which is why `ready` is the user's to declare.
 * @internal
 */
export function defineReceiverSecret(scope: Construct, receiver: WebhookReceiver, namespace: string, labels: Record<string, string>): void {
  if (receiver.secretSource === undefined) return;
  new k8s.KubeSecret(scope, `WebhookSecret-${receiver.name}`, {
    metadata: {
      name: receiver.secretName,
      namespace,
      labels,
      annotations: { 'gitops-platform.io/credentials-source': receiver.secretSource, 'gitops-platform.io/secret-key': receiver.secretKey },
    },
    type: 'Opaque',
  });
}

/**
 * Adds the problems of a list of receivers (each one's own, duplicate names) to `problems`.
 * @internal
 */
export function webhookReceiverProblems(problems: ProblemList, field: string, receivers: WebhookReceiver[]): void {
  receivers.forEach((r, i) => {
    if (!(r instanceof WebhookReceiver)) {
      problems.add(describe(prop(field, i), r, 'must be a WebhookReceiver',
        hint`use ${call('WebhookReceiver', 'github', shorthand('WebhookReceiverOptions', 'name', 'secretName', 'repoUrls'))}`));
      return;
    }
    reportValue(problems, prop(field, i), r);
  });
  const dup = duplicates(receivers.filter(r => r instanceof WebhookReceiver).map(r => r.name));
  if (dup.length > 0) {
    problems.add(describe(prop(field), dup, 'repeats receiver names', 'give each receiver a unique name'));
  }
  // two receivers writing one Secret would write it twice (and with two sources)
  const written = duplicates(receivers.filter(r => r instanceof WebhookReceiver && r.secretSource !== undefined).map(r => r.secretName));
  if (written.length > 0) {
    problems.add(describe(prop(field), written, 'writes these Secrets from more than one receiver\'s secretSource', 'give secretSource on one receiver per Secret only'));
  }
}

/**
 * Validates the platform's receivers and, when there are any, defines Kargo's `ClusterConfig`
 * with them: each a name and a reference to the Secret the platform team keeps in Kargo's system
 * resources namespace (pkg/webhook/external/config.go, `SYSTEM_RESOURCES_NAMESPACE`,
 * `kargo-system-resources` by default). Written as plain JSON (the generated classes do not
 * include ClusterConfig); the tests validate it against the pinned CRD.
 * @internal
 */
export function defineClusterConfig(scope: Construct, problems: ProblemList, receivers: WebhookReceiver[] | undefined,
  fallback: Duration | undefined, labels: Record<string, string>): WebhookReceiver[] | undefined {
  if (receivers === undefined) return undefined;
  webhookReceiverProblems(problems, 'webhookReceivers', receivers);
  if (fallback !== undefined) {
    const seconds = fallback instanceof Duration ? fallback.toSeconds() : NaN;
    problems.check(prop('discoveryFallbackInterval'), fallback instanceof Duration ? `${seconds}s` : fallback,
      Number.isInteger(seconds) && seconds >= 60 ? undefined : 'must be a whole number of seconds, at least a minute',
      hint`use e.g. ${call('Duration', 'hours', num(1))}: polling only catches pushes a webhook missed`);
  }
  if (receivers.length === 0 || problems.size > 0) return [...receivers];
  new ApiObject(scope, 'KargoClusterConfig', {
    apiVersion: 'kargo.akuity.io/v1alpha1',
    kind: 'ClusterConfig',
    metadata: { name: CLUSTER_CONFIG_NAME },
    spec: { webhookReceivers: receivers.map(r => r._toKargo()) },
  });
  for (const r of receivers) defineReceiverSecret(scope, r, SYSTEM_RESOURCES_NAMESPACE, labels);
  return [...receivers];
}
