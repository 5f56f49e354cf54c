import { ApiObject, App, Chart, Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { CaBundle } from '../fleet/verification-jobs';

/** One environment variable of a check's container. @internal */
export interface JobEnvVar {
  readonly name: string;
  /** Plain value (may hold `{{args.x}}`, which Rollouts fills). */
  readonly value?: string;
  /** Read straight from a Secret, so the value never appears in the Job object. */
  readonly secretName?: string;
  readonly secretKey?: string;
}

/** What a job check's container looks like once placeholders are filled. @internal */
export interface JobSpecInput {
  readonly image: string;
  /** @default - cdk8s-plus's default, Always */
  readonly imagePullPolicy?: kplus.ImagePullPolicy;
  readonly command?: string[];
  readonly args?: string[];
  readonly env: JobEnvVar[];
  readonly backoffLimit: number;
  readonly activeDeadline: Duration;
  readonly user: number;
  readonly resources: kplus.ContainerResources;
  readonly labels: Record<string, string>;
  /** The platform's CA bundle, mounted, and the env var that points the container at it. */
  readonly caBundle?: { readonly bundle: CaBundle; readonly env: string };
}

/** Where the CA bundle is mounted: a directory of its own, read-only. @internal */
export const CA_BUNDLE_DIR = '/etc/gitops-platform/ca';

const CDK8S_ADDRESS_LABEL = 'cdk8s.io/metadata.addr';

/**
 * The batch/v1 JobSpec of a job metric, built with cdk8s-plus for its secure defaults (non-root,
 * read-only root filesystem, no service account token) in a throwaway chart: only the spec is
 * kept, since Argo Rollouts creates the Job itself, once per measurement.
 *
 * The pod meets Pod Security `restricted` (Kubernetes Pod Security Standards; the checks of
 * k8s.io/pod-security-admission `policy/`): Argo Rollouts creates the Job in the AnalysisRun's
 * namespace (`metricproviders/job/job.go`), for Kargo the project namespace on the hub, which a
 * platform may label `pod-security.kubernetes.io/enforce: restricted`. cdk8s-plus sets
 * `runAsNonRoot` and `allowPrivilegeEscalation: false`; dropping every capability
 * (`capabilities_restricted`) and the runtime's seccomp profile (`seccompProfile_restricted`)
 * are set here. Volumes are an emptyDir and a ConfigMap (`restrictedVolumes`).
 * @internal
 */
export function renderJobSpec(input: JobSpecInput): any {
  const key = cacheKey(input);
  const cached = key === undefined ? undefined : renderedSpecs.get(key);
  if (cached) return withPodLabels(cached, input.labels);
  const spec = buildJobSpec(input);
  // keep the spec only when the pod labels are all it takes from the labels (see cacheKey)
  if (key !== undefined && JSON.stringify(spec.template?.metadata?.labels) === JSON.stringify(sortedLabels(input.labels))) {
    renderedSpecs.set(key, deepFreeze(structuredClone(spec)));
  }
  return spec;
}

/**
 * Rendered specs by everything of the input but the label values. Building a throwaway app,
 * chart and cdk8s-plus Job costs more than the rest of a check: the soak metric alone is
 * rendered for every wave of every app, the JSON guard for every cluster of every HTTP check,
 * and they differ only in their labels. The labels reach the spec in one place,
 * `template.metadata.labels`, sorted (cdk8s `ApiObject.toJson()` sorts keys), which
 * `renderJobSpec` checks before it keeps a spec; a hit gets a copy with the labels of its input.
 */
const renderedSpecs = new Map<string, any>();

/**
 * What the spec depends on, as cdk8s-plus reads it (amounts, whole units); undefined when a
 * label is not a string or cdk8s-plus would refuse a value (the render then throws as before).
 */
function cacheKey(input: JobSpecInput): string | undefined {
  const labelValues = Object.values(input.labels);
  if (!labelValues.every(v => typeof v === 'string')) return undefined;
  const { cpu, memory, ephemeralStorage } = input.resources;
  const cpuAmounts = [cpu?.request?.amount, cpu?.limit?.amount];
  if (!cpuAmounts.every(v => v === undefined || typeof v === 'string' || typeof v === 'number')) return undefined;
  try {
    const key = JSON.stringify([input.image, input.imagePullPolicy, input.command, input.args, input.env, input.backoffLimit,
      input.activeDeadline.toSeconds(), input.user, ...cpuAmounts,
      memory?.request?.toMebibytes(), memory?.limit?.toMebibytes(), ephemeralStorage?.request?.toGibibytes(),
      ephemeralStorage?.limit?.toGibibytes(), Object.keys(input.labels).sort(), input.caBundle?.bundle.configMapName,
      input.caBundle?.bundle.key, input.caBundle?.env]);
    return key;
  } catch {
    return undefined;
  }
}

function sortedLabels(labels: Record<string, string>): Record<string, string> {
  const sorted: Record<string, string> = {};
  for (const k of Object.keys(labels).sort()) sorted[k] = labels[k];
  return sorted;
}

/**
 * The kept spec with other pod labels: new objects on the path to the labels, the rest shared
 * with the kept spec (frozen, so that nothing can change it under the other checks that share it;
 * rendering copies every object it writes).
 */
function withPodLabels(spec: any, labels: Record<string, string>): any {
  return { ...spec, template: { ...spec.template, metadata: { ...spec.template.metadata, labels: sortedLabels(labels) } } };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

function buildJobSpec(input: JobSpecInput): any {
  const chart = new Chart(new App(), 'verification');
  const job = new kplus.Job(chart, 'job', {
    backoffLimit: input.backoffLimit,
    activeDeadline: input.activeDeadline,
    podMetadata: { labels: input.labels },
    securityContext: { ensureNonRoot: true, user: input.user },
    containers: [{
      name: 'check',
      image: input.image,
      imagePullPolicy: input.imagePullPolicy,
      command: input.command,
      args: input.args,
      resources: input.resources,
      // A numeric user lets the kubelet prove the container is not root even when the image
      // names its user (USER curl_user), which runAsNonRoot alone would refuse to start.
      securityContext: {
        ensureNonRoot: true,
        user: input.user,
        allowPrivilegeEscalation: false,
        capabilities: { drop: [kplus.Capability.ALL] },
        seccompProfile: { type: kplus.SeccompProfileType.RUNTIME_DEFAULT },
      },
      envVariables: Object.fromEntries([
        ...input.env.map(e => [e.name, e.secretName !== undefined
          ? kplus.EnvValue.fromSecretValue({ secret: kplus.Secret.fromSecretName(chart, `secret-${e.name}`, e.secretName), key: e.secretKey! })
          : kplus.EnvValue.fromValue(e.value ?? '')] as const),
        ...caEnv(input),
      ]),
    }],
  });
  // Test tools write temporary files; the root filesystem is read-only.
  job.containers[0].mount('/tmp', kplus.Volume.fromEmptyDir(chart, 'tmp', 'tmp'));
  if (input.caBundle) {
    const configMap = kplus.ConfigMap.fromConfigMapName(chart, 'ca-bundle', input.caBundle.bundle.configMapName);
    job.containers[0].mount(CA_BUNDLE_DIR, kplus.Volume.fromConfigMap(chart, 'ca', configMap, { name: 'ca-bundle' }), { readOnly: true });
  }
  const spec = ApiObject.of(job).toJson().spec;
  // The address label only makes sense inside the throwaway chart.
  delete spec.template?.metadata?.labels?.[CDK8S_ADDRESS_LABEL];
  return spec;
}

/** The env var that points the container at the CA bundle, unless the check sets it itself. */
function caEnv(input: JobSpecInput): Array<readonly [string, kplus.EnvValue]> {
  const ca = input.caBundle;
  if (!ca || input.env.some(e => e.name === ca.env)) return [];
  return [[ca.env, kplus.EnvValue.fromValue(`${CA_BUNDLE_DIR}/${ca.bundle.key ?? 'ca.crt'}`)]];
}

/** Requests small enough for a probe on the hub, limits large enough for a test runner. @internal */
export const DEFAULT_JOB_RESOURCES: kplus.ContainerResources = {
  cpu: { request: kplus.Cpu.millis(100), limit: kplus.Cpu.units(1) },
  memory: { request: Size.mebibytes(128), limit: Size.mebibytes(512) },
};

/** The numeric user a check's container runs as unless told otherwise (not root). @internal */
export const DEFAULT_JOB_USER = 65532;
