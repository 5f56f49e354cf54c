/**
 * Label keys this library writes on Argo CD cluster Secrets and generated Applications.
 *
 * Cluster selectors match on these keys (plus any extra labels a cluster declares); the
 * generated ApplicationSets and Kargo Stages select Applications with them.
 *
 * @example
 * ClusterSelector.matchLabels({ [PlatformLabels.REGION]: 'us-east-1' });
 */
export class PlatformLabels {
  /** Prefix of every label key this library owns. */
  public static readonly PREFIX = 'gitops-platform.io';
  /** The cluster's name. */
  public static readonly CLUSTER = 'gitops-platform.io/cluster';
  /** The fleet a cluster belongs to. */
  public static readonly FLEET = 'gitops-platform.io/fleet';
  /** The cloud or on-premises provider. */
  public static readonly PROVIDER = 'gitops-platform.io/provider';
  /** The region the cluster runs in. */
  public static readonly REGION = 'gitops-platform.io/region';
  /** The environment tier (dev, staging, prod, ...). */
  public static readonly TIER = 'gitops-platform.io/tier';
  /** The accelerator family (`none` for CPU-only clusters). */
  public static readonly ACCELERATOR = 'gitops-platform.io/accelerator';
  /** How many accelerators the cluster offers. */
  public static readonly ACCELERATOR_COUNT = 'gitops-platform.io/accelerator-count';
  /** The Kubernetes minor version (`1.31`). */
  public static readonly KUBERNETES_VERSION = 'gitops-platform.io/kubernetes-version';
  /** The Argo CD topology serving the cluster (`central` or `per-cluster`). */
  public static readonly TOPOLOGY = 'gitops-platform.io/topology';
  /** The application an Argo CD Application belongs to. */
  public static readonly APP = 'gitops-platform.io/app';
  /** The Kargo Stage (stage or wave) that updates an Argo CD Application. */
  public static readonly STAGE = 'gitops-platform.io/stage';
  /** The pipeline stage an Argo CD Application belongs to. */
  public static readonly PIPELINE_STAGE = 'gitops-platform.io/pipeline-stage';
  /**
   * Annotation (on an app's Kargo Project and AppProjects) recording an emergency exception from
   * the app's deploy freezes: who decided, why and until when. The change review accepts a
   * production change during a freeze only with it.
   */
  public static readonly FREEZE_OVERRIDE = 'gitops-platform.io/freeze-override';

  /**
   * Annotation on a Kargo Stage: the soak its Freight waits first (Kargo duration), waited in the
   * verification of the Stages before it rather than as Kargo's `requiredSoakTime`.
   */
  public static readonly SOAK = 'gitops-platform.io/soak';

  /**
   * Annotation on a Kargo Warehouse: the webhook receivers that refresh it on a push (comma
   * separated; `<project>/<name>` for a project's own), which is why it polls only slowly.
   */
  public static readonly WEBHOOK_RECEIVERS = 'gitops-platform.io/webhook-receivers';

  /**
   * Annotation on a Kargo Project: the app's lead time (Go duration), the least time from a new
   * artifact to a verified release on every cluster, so `plan --base` can show a change to it.
   */
  public static readonly LEAD_TIME = 'gitops-platform.io/lead-time';

  private constructor() {}
}
