import { Duration } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { DEFAULT_JOB_RESOURCES, JobEnvVar, renderJobSpec } from './job-spec';
import {
  BUILT_IN_ARGS, checkText, fillPlaceholders, replaceRolloutsTags, SYNTH_PLACEHOLDERS, usesClusterPlaceholder,
} from './placeholders';
import { VerificationArg } from './verification-arg';
import { compact } from '../util/collections';
import { toGoDuration } from '../util/duration';
import { dns1123LabelProblem, dns1123SubdomainProblem } from '../util/names';

/**
 * What a check runs.
 */
export enum VerificationKind {
  /** An HTTP request (Argo Rollouts `web` metric). */
  HTTP = 'http',
  /** A PromQL query (Argo Rollouts `prometheus` metric). */
  PROMETHEUS = 'prometheus',
  /** A container run as a Kubernetes Job in the hub cluster (Argo Rollouts `job` metric). */
  JOB = 'job',
  /** An AnalysisTemplate or ClusterAnalysisTemplate that exists already. */
  TEMPLATE = 'template',
}

/**
 * The HTTP method of an HTTP check (the methods the Argo Rollouts web provider supports).
 */
export enum HttpMethod {
  /** GET (no body). */
  GET = 'GET',
  /** POST, with an optional body. */
  POST = 'POST',
  /** PUT, with an optional body. */
  PUT = 'PUT',
}

/**
 * How a Prometheus result is compared with a threshold.
 */
export enum Comparison {
  /** Passes when the value is below the threshold (error rates, latencies). */
  LESS_THAN = '<',
  /** Passes when the value is at most the threshold. */
  LESS_THAN_OR_EQUAL = '<=',
  /** Passes when the value is above the threshold (success rates, throughput). */
  GREATER_THAN = '>',
  /** Passes when the value is at least the threshold. */
  GREATER_THAN_OR_EQUAL = '>=',
  /** Passes when the value equals the threshold (`up == 1`). */
  EQUAL = '==',
  /** Passes when the value differs from the threshold. */
  NOT_EQUAL = '!=',
}

/**
 * Options common to the checks this library generates an AnalysisTemplate for.
 *
 * A check is measured `count` times, `interval` apart, and fails once more than `failureLimit`
 * measurements failed. The measurements of HTTP and Prometheus checks run on the hub, where Kargo
 * runs, and reach each cluster over the network.
 */
export interface VerificationOptions {
  /**
   * The check's name (DNS label), unique among an app's checks. It names the AnalysisTemplate
   * (`<kargo stage>-<name>`) and its metrics (`<name>-<cluster>`).
   * @default - the kind: 'http', 'prometheus' or 'job'
   */
  readonly name?: string;
  /**
   * Time between measurements (whole seconds), when `count` is more than 1.
   * @default Duration.minutes(1)
   */
  readonly interval?: Duration;
  /**
   * How many measurements are taken. Measurements that error (unreachable, timeout, non-2xx,
   * query error) are retried and not counted.
   * @default 5 for HTTP and Prometheus checks (about four minutes of watching), 1 for job checks
   */
  readonly count?: number;
  /**
   * How many measurements may fail before the check fails; less than `count`, or the check
   * could never fail. For HTTP and Prometheus checks it also bounds consecutive errors, so an
   * endpoint that stays unreachable fails the check instead of retrying forever.
   * @default 1 for HTTP and Prometheus checks (one flaky measurement is tolerated), 0 for job checks
   */
  readonly failureLimit?: number;
  /**
   * Wait before the first measurement (whole seconds). Kargo starts verification once the
   * promotion finished and the Argo CD Applications are healthy, so none is usually needed.
   * @default - none
   */
  readonly initialDelay?: Duration;
  /**
   * Measure and report without affecting the verification result (Argo Rollouts `dryRun`),
   * e.g. to try a new check.
   * @default false
   */
  readonly dryRun?: boolean;
  /**
   * Arguments the check references as `{{args.<name>}}`. `{{args.stage}}` (the Kargo Stage)
   * and `{{args.project}}` (the Kargo project) are always available and must not be declared.
   * @default - none
   */
  readonly args?: Record<string, VerificationArg>;
}

/**
 * Options for `Verification.http()`.
 *
 * A measurement succeeds when the endpoint answers 2xx and `successCondition` holds for the
 * value at `jsonPath`. Non-2xx answers, timeouts and unreachable endpoints are errors. Note that
 * Argo Rollouts up to 1.9 counts a 2xx answer whose body is not JSON as a success without
 * evaluating the condition (1.10 evaluates it on the body text): write conditions for JSON
 * endpoints.
 */
export interface HttpVerificationOptions extends VerificationOptions {
  /**
   * The URL (http or https). It may use `{cluster}`, `{region}`, `{provider}`, `{accelerator}`,
   * `{tier}` and `{stage}`, filled for each cluster, and `{{args.<name>}}`, e.g.
   * `https://gateway.{cluster}.example.com/healthz`.
   */
  readonly url: string;
  /**
   * The HTTP method.
   * @default HttpMethod.GET
   */
  readonly method?: HttpMethod;
  /**
   * Request headers; values may use placeholders. Credentials (`Authorization`, tokens, API
   * keys, cookies) must come from a Secret: `'Bearer {{args.token}}'` with
   * `args: { token: VerificationArg.fromSecret('<secret>', '<key>') }`; literal ones are refused.
   * @default - none
   */
  readonly headers?: Record<string, string>;
  /**
   * The request body, for POST and PUT; it may use placeholders.
   * @default - none
   */
  readonly body?: string;
  /**
   * Where in the JSON answer the value tested by `successCondition` is (Kubernetes JSONPath).
   * @default '{$}' (the whole answer)
   */
  readonly jsonPath?: string;
  /**
   * The expr-lang condition on `result` (the value at `jsonPath`) for a measurement to succeed,
   * e.g. `result == 'UP'` with jsonPath `{$.status}`.
   * @default 'true' (every 2xx answer succeeds, JSON or not, as for a plain health endpoint; an
   * explicit condition rather than none, so the result does not depend on how the Rollouts
   * version treats a metric without conditions)
   */
  readonly successCondition?: string;
  /**
   * How long one request may take (whole seconds).
   * @default Duration.seconds(10) (the Argo Rollouts default)
   */
  readonly timeout?: Duration;
  /**
   * Skip TLS certificate verification.
   * @default false
   */
  readonly insecure?: boolean;
}

/**
 * Options for `Verification.prometheus()`: either `threshold` with `comparison`, or
 * `successCondition`.
 */
export interface PrometheusVerificationOptions extends VerificationOptions {
  /**
   * The Prometheus server (http or https); it may use placeholders, e.g. one server per region:
   * `http://prometheus.{region}.monitoring.example.com:9090`.
   */
  readonly address: string;
  /**
   * The PromQL query. It may use placeholders, typically a label matcher for the cluster:
   * `sum(rate(http_requests_total{cluster="{cluster}",code=~"5.."}[5m])) / sum(rate(http_requests_total{cluster="{cluster}"}[5m]))`.
   */
  readonly query: string;
  /**
   * The threshold the first sample of the result is compared with (`result[0] <comparison> <threshold>`).
   * @default - none: give successCondition instead
   */
  readonly threshold?: number;
  /**
   * How the first sample is compared with `threshold`; required with it.
   * @default - none
   */
  readonly comparison?: Comparison;
  /**
   * An explicit expr-lang condition on `result` (the vector of samples), e.g.
   * `len(result) > 0 && result[0] < 0.01`.
   * @default - derived from threshold and comparison
   */
  readonly successCondition?: string;
  /**
   * Request headers (e.g. a tenant id); credentials must come from a Secret as for HTTP checks.
   * @default - none
   */
  readonly headers?: Record<string, string>;
  /**
   * How long one query may take (whole seconds).
   * @default - the Argo Rollouts default
   */
  readonly timeout?: Duration;
  /**
   * Skip TLS certificate verification.
   * @default false
   */
  readonly insecure?: boolean;
}

/**
 * Options for `Verification.job()`. The container runs in the hub cluster, in the Kargo project
 * namespace, as a non-root user with a read-only root filesystem (a writable `/tmp`) and no
 * service account token; it reaches the clusters over the network. It passes when it exits 0.
 */
export interface JobVerificationOptions extends VerificationOptions {
  /** The container image; it may use `{{args.<name>}}`, e.g. a test image of the version being verified. */
  readonly image: string;
  /**
   * The entrypoint; elements may use placeholders.
   * @default - the image's entrypoint
   */
  readonly command?: string[];
  /**
   * Arguments of the entrypoint; elements may use placeholders, e.g. `['--target', 'https://api.{cluster}.example.com']`.
   * @default - the image's command
   */
  readonly containerArgs?: string[];
  /**
   * Environment variables; values may use placeholders. Names that look like credentials
   * (`*_TOKEN`, `*PASSWORD*`, `*_KEY`, ...) must be given as `'{{args.<name>}}'` with a
   * `VerificationArg.fromSecret()` arg: the variable is then read from the Secret directly.
   * @default - none
   */
  readonly env?: Record<string, string>;
  /**
   * How many times a failed pod is retried within one measurement.
   * @default 0 (a failing test fails the measurement)
   */
  readonly backoffLimit?: number;
  /**
   * How long one Job may run before it is stopped and fails (whole seconds), so a hung test
   * cannot hold verification forever.
   * @default Duration.minutes(10)
   */
  readonly activeDeadline?: Duration;
  /**
   * The numeric user the container runs as (not root).
   * @default 65532
   */
  readonly user?: number;
  /**
   * CPU and memory of the container.
   * @default - requests 100m CPU and 128Mi memory, limits 1 CPU and 512Mi memory
   */
  readonly resources?: kplus.ContainerResources;
}

/**
 * Options for `Verification.fromTemplate()`.
 */
export interface TemplateVerificationOptions {
  /**
   * Values for the template's arguments. Kargo passes them, so `fromSecret()` is not possible
   * here: a template reads its own Secrets (`valueFrom.secretKeyRef`).
   * @default - none
   */
  readonly args?: Record<string, VerificationArg>;
  /**
   * The template is a ClusterAnalysisTemplate rather than an AnalysisTemplate in the Kargo
   * project namespace.
   * @default false
   */
  readonly clusterScoped?: boolean;
}

interface Timing {
  readonly interval?: string;
  readonly initialDelay?: string;
  readonly count: number;
  readonly failureLimit: number;
  readonly consecutiveErrorLimit?: number;
  readonly dryRun: boolean;
}

interface KindDefaults {
  readonly count: number;
  readonly failureLimit: number;
  /** Whether errors count against `failureLimit` (see VerificationOptions.failureLimit). */
  readonly boundErrors: boolean;
}

type MetricBuilder = (fill: (text: string) => string, labels: Record<string, string>) => Record<string, unknown>;

const DEFAULT_INTERVAL = Duration.minutes(1);
const PROBE_DEFAULTS: KindDefaults = { count: 5, failureLimit: 1, boundErrors: true };
const JOB_DEFAULTS: KindDefaults = { count: 1, failureLimit: 0, boundErrors: false };
const ARG_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const ENV_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;
const SECRET_LOOKING_HEADER = /(authorization|cookie|token|secret|passw(or)?d|api[-_]?key|credential|private[-_]?key|session)/i;
const SECRET_LOOKING_ENV = /(TOKEN|SECRET|PASSWORD|PASSWD|PRIVATE|CREDENTIAL|API_?KEY|_KEY$|^KEY$)/i;
const CREDENTIAL_VALUE = /^\s*(bearer|basic|token|digest)\s+\S{8,}/i;
const SECRET_REFERENCE = /^\s*(?:[A-Za-z][\w-]*\s+)?\{\{\s*args\.([^}\s]+)\s*\}\}\s*$/;
const WHOLE_ARG_REFERENCE = /^\s*\{\{\s*args\.([^}\s]+)\s*\}\}\s*$/;
const DEFAULT_USER = 65532;

/**
 * A check that Kargo runs after promoting an app to a Stage, before the Freight counts as
 * verified there and may move on. Checks that use `{cluster}` (or `{region}`, ...) are measured
 * once per cluster of the Stage; the others once per Stage.
 *
 * @see https://docs.kargo.io/user-guide/how-to-guides/verification
 */
export class Verification {
  /**
   * An HTTP request against each cluster, e.g. a health endpoint:
   * `Verification.http({ url: 'https://api.{cluster}.example.com/healthz' })`.
   */
  public static http(options: HttpVerificationOptions): Verification {
    const problems: string[] = [];
    const common = commonOptions(VerificationKind.HTTP, options, PROBE_DEFAULTS, problems);
    const refs: string[] = [];
    const url = `${options?.url ?? ''}`;
    const urlRefs = publicText(problems, 'http url', url, common, 'error messages and logs show the url');
    refs.push(...urlRefs);
    checkUrl(problems, 'http url', url);
    const method = options?.method ?? HttpMethod.GET;
    if (!Object.values(HttpMethod).includes(method)) {
      problems.push(`http method must be GET, POST or PUT, got ${JSON.stringify(method)}`);
    }
    const body = options?.body;
    if (body !== undefined) {
      if (method === HttpMethod.GET) {
        problems.push('http body needs method POST or PUT, got a body with GET; set method: HttpMethod.POST or drop the body');
      }
      refs.push(...checkText(problems, 'http body', `${body}`, common.declared));
    }
    const headers = entries(options?.headers);
    refs.push(...checkHeaders(problems, 'http', headers, common));
    const jsonPath = options?.jsonPath ?? '{$}';
    if (!/^\{[\s\S]*\}$/.test(jsonPath)) {
      problems.push(`http jsonPath must be a Kubernetes JSONPath in braces, got ${JSON.stringify(jsonPath)}; use e.g. "{$.status}"`);
    }
    refs.push(...checkText(problems, 'http jsonPath', jsonPath, common.declared));
    const condition = options?.successCondition;
    if (condition !== undefined) {
      if (`${condition}`.trim() === '') problems.push('http successCondition must not be empty, got ""; omit it to accept every 2xx answer');
      refs.push(...checkText(problems, 'http successCondition', `${condition}`, common.declared));
    } else if (options?.jsonPath !== undefined) {
      problems.push(`http jsonPath ${JSON.stringify(options.jsonPath)} is given without a successCondition, so it checks nothing; add e.g. successCondition: "result == 'UP'"`);
    }
    const timeoutSeconds = seconds(problems, 'http timeout', options?.timeout);
    const perCluster = [url, body ?? '', ...headers.map(([, v]) => v)].some(usesClusterPlaceholder);
    const build: MetricBuilder = (fill) => ({
      successCondition: condition ?? 'true',
      provider: {
        web: {
          method,
          url: fill(url),
          headers: headers.length > 0 ? headers.map(([key, value]) => ({ key, value: fill(value) })) : undefined,
          body: body !== undefined ? fill(body) : undefined,
          jsonPath,
          timeoutSeconds,
          insecure: options?.insecure ? true : undefined,
        },
      },
    });
    return new Verification(VerificationKind.HTTP, common.name, common.args, unique(refs), perCluster, build,
      common.timing, undefined, problems);
  }

  /**
   * A PromQL query, usually one per cluster through a label matcher, with a threshold:
   * `Verification.prometheus({ address, query: 'sum(rate(errors{cluster="{cluster}"}[5m]))', threshold: 1, comparison: Comparison.LESS_THAN })`.
   * A query that returns no sample errors the measurement; a NaN sample (a ratio without
   * traffic) fails every comparison but `NOT_EQUAL`.
   */
  public static prometheus(options: PrometheusVerificationOptions): Verification {
    const problems: string[] = [];
    const common = commonOptions(VerificationKind.PROMETHEUS, options, PROBE_DEFAULTS, problems);
    const refs: string[] = [];
    const address = `${options?.address ?? ''}`;
    const addressRefs = publicText(problems, 'prometheus address', address, common, 'error messages and logs show the address');
    refs.push(...addressRefs);
    checkUrl(problems, 'prometheus address', address);
    const query = `${options?.query ?? ''}`;
    if (query.trim() === '') {
      problems.push('prometheus query must not be empty, got ""; give a PromQL query, e.g. sum(rate(http_requests_total{cluster="{cluster}",code=~"5.."}[5m]))');
    }
    const queryRefs = publicText(problems, 'prometheus query', query, common, 'error messages and logs show the query');
    refs.push(...queryRefs);
    const condition = prometheusCondition(problems, options);
    if (condition !== undefined && options?.successCondition !== undefined) {
      refs.push(...checkText(problems, 'prometheus successCondition', condition, common.declared));
    }
    const headers = entries(options?.headers);
    refs.push(...checkHeaders(problems, 'prometheus', headers, common));
    const timeout = seconds(problems, 'prometheus timeout', options?.timeout);
    const perCluster = [address, query, ...headers.map(([, v]) => v)].some(usesClusterPlaceholder);
    const build: MetricBuilder = (fill) => ({
      successCondition: condition,
      provider: {
        prometheus: {
          address: fill(address),
          query: fill(query),
          headers: headers.length > 0 ? headers.map(([key, value]) => ({ key, value: fill(value) })) : undefined,
          timeout,
          insecure: options?.insecure ? true : undefined,
        },
      },
    });
    return new Verification(VerificationKind.PROMETHEUS, common.name, common.args, unique(refs), perCluster, build,
      common.timing, undefined, problems);
  }

  /**
   * A container run as a Kubernetes Job in the hub cluster, e.g. a smoke test suite against
   * each cluster: `Verification.job({ image: 'ghcr.io/acme/smoke:1.4.0', containerArgs: ['--target', 'https://api.{cluster}.example.com'] })`.
   */
  public static job(options: JobVerificationOptions): Verification {
    const problems: string[] = [];
    const common = commonOptions(VerificationKind.JOB, options, JOB_DEFAULTS, problems);
    const refs: string[] = [];
    const texts: string[] = [];
    const image = `${options?.image ?? ''}`;
    if (image.trim() === '' || /\s/.test(image)) {
      problems.push(`job image must be an image reference without spaces, got ${JSON.stringify(options?.image)}; use e.g. "ghcr.io/acme/smoke-tests:1.4.0"`);
    }
    const imageRefs = publicText(problems, 'job image', image, common, 'the image reference is public');
    refs.push(...imageRefs);
    texts.push(image);
    const lists: Array<[string, string[] | undefined]> = [['job command', options?.command], ['job containerArgs', options?.containerArgs]];
    for (const [field, list] of lists) {
      (list ?? []).forEach((item, i) => {
        const itemRefs = publicText(problems, `${field}[${i}]`, `${item}`, common, 'it would be copied into the Job object; pass it through env instead');
        refs.push(...itemRefs);
        texts.push(`${item}`);
      });
    }
    const env: Array<[string, string, VerificationArg | undefined]> = [];
    for (const [name, value] of entries(options?.env)) {
      const field = `job env ${name}`;
      if (!ENV_NAME.test(name)) {
        problems.push(`job env name must consist of letters, digits, '_', '-' or '.', and not start with a digit, got ${JSON.stringify(name)}`);
      }
      const whole = WHOLE_ARG_REFERENCE.exec(value);
      const secretArg = whole ? common.args[whole[1]] : undefined;
      if (secretArg?.isSecret) {
        // Read from the Secret by the kubelet: never substituted into the Job object.
        env.push([name, value, secretArg]);
        continue;
      }
      if (SECRET_LOOKING_ENV.test(name)) {
        const problem = credentialProblem(field, whole?.[1], common,
          `env: { ${name}: '{{args.${argNameFor(name)}}}' } with args: { '${argNameFor(name)}': VerificationArg.fromSecret('<secret>', '<key>') }`);
        if (problem) problems.push(problem);
      }
      const valueRefs = publicText(problems, field, value, common,
        'only a whole value \'{{args.<name>}}\' is read from the Secret; a secret inside a longer value would be copied into the Job object');
      refs.push(...valueRefs);
      texts.push(value);
      env.push([name, value, undefined]);
    }
    const backoffLimit = options?.backoffLimit ?? 0;
    if (!(Number.isInteger(backoffLimit) && backoffLimit >= 0)) {
      problems.push(`job backoffLimit must be a whole number of at least 0, got ${backoffLimit}`);
    }
    const activeDeadline = options?.activeDeadline ?? Duration.minutes(10);
    seconds(problems, 'job activeDeadline', activeDeadline);
    const user = options?.user ?? DEFAULT_USER;
    if (!(Number.isInteger(user) && user > 0)) {
      problems.push(`job user must be a whole number above 0 (not root), got ${user}; use e.g. 65532`);
    }
    const resources = options?.resources ?? DEFAULT_JOB_RESOURCES;
    const perCluster = texts.some(usesClusterPlaceholder);
    const build: MetricBuilder = (fill, labels) => ({
      provider: {
        job: {
          metadata: { labels },
          spec: renderJobSpec({
            image: fill(image),
            command: options?.command?.map(c => fill(`${c}`)),
            args: options?.containerArgs?.map(a => fill(`${a}`)),
            env: env.map(([name, value, secret]): JobEnvVar => secret
              ? { name, secretName: secret.secretName, secretKey: secret.secretKey }
              : { name, value: fill(value) }),
            backoffLimit,
            activeDeadline,
            user,
            resources,
            labels,
          }),
        },
      },
    });
    return new Verification(VerificationKind.JOB, common.name, common.args, unique(refs), perCluster, build,
      common.timing, undefined, problems);
  }

  /**
   * An AnalysisTemplate that exists in the Kargo project namespace, or a ClusterAnalysisTemplate
   * (`clusterScoped`). Nothing is generated for it and it runs once per Stage, not per cluster;
   * its args may use `{stage}`.
   */
  public static fromTemplate(templateName: string, options: TemplateVerificationOptions = {}): Verification {
    const problems: string[] = [];
    const name = `${templateName ?? ''}`;
    const nameProblem = dns1123SubdomainProblem(name);
    if (nameProblem) problems.push(`template name ${nameProblem}, got ${JSON.stringify(templateName)}`);
    const args = { ...options?.args ?? {} };
    for (const [argName, arg] of Object.entries(args)) {
      checkArgName(problems, argName, false);
      for (const p of arg?._problems ?? []) problems.push(`args.${argName}: ${p}`);
      if (arg?.isSecret) {
        problems.push(`args.${argName} comes from a Secret, which Kargo cannot pass to an existing template; `
          + `declare it in the template itself: args: [{ name: ${argName}, valueFrom: { secretKeyRef: { name: ${arg.secretName}, key: ${arg.secretKey} } } }]`);
      }
    }
    const kind = options?.clusterScoped ? 'ClusterAnalysisTemplate' : 'AnalysisTemplate';
    return new Verification(VerificationKind.TEMPLATE, name, args, [], false, undefined, undefined, kind, problems);
  }

  private constructor(
    /** What the check runs. */
    public readonly kind: VerificationKind,
    /** The check's name (the template's name for `fromTemplate()`). */
    public readonly name: string,
    /** @internal */
    public readonly _args: Record<string, VerificationArg>,
    /** The args the generated metrics substitute, built-in ones included. @internal */
    public readonly _referencedArgs: string[],
    /** Whether the check is measured once per cluster. @internal */
    public readonly _perCluster: boolean,
    private readonly build: MetricBuilder | undefined,
    private readonly timing: Timing | undefined,
    /** `AnalysisTemplate` or `ClusterAnalysisTemplate`, for `fromTemplate()`. @internal */
    public readonly _templateKind: string | undefined,
    /** @internal */
    public readonly _problems: string[]) {}

  /**
   * The metric of one cluster (or of the Stage), placeholders filled from `values`.
   * @internal
   */
  public _renderMetric(metricName: string, values: Record<string, string>, labels: Record<string, string>): any {
    if (!this.build || !this.timing) throw new Error(`verification "${this.name}" is a template reference and has no metric`);
    const t = this.timing;
    const body = this.build(text => fillPlaceholders(text, values), labels);
    return compact({
      name: metricName,
      initialDelay: t.initialDelay,
      interval: t.count > 1 ? t.interval : undefined,
      count: t.count,
      failureLimit: t.failureLimit,
      consecutiveErrorLimit: t.consecutiveErrorLimit,
      ...body,
    });
  }

  /** @internal */
  public get _dryRun(): boolean {
    return this.timing?.dryRun ?? false;
  }
}

interface CommonOptions {
  readonly name: string;
  readonly args: Record<string, VerificationArg>;
  readonly declared: Set<string>;
  readonly timing: Timing;
}

function commonOptions(kind: VerificationKind, options: VerificationOptions | undefined, defaults: KindDefaults, problems: string[]): CommonOptions {
  const name = options?.name ?? kind;
  const nameProblem = dns1123LabelProblem(`${name}`);
  if (nameProblem) problems.push(`${kind} check name ${nameProblem}, got ${JSON.stringify(name)}; use e.g. "health"`);
  const args = { ...options?.args ?? {} };
  for (const [argName, arg] of Object.entries(args)) {
    checkArgName(problems, argName, true);
    for (const p of arg?._problems ?? []) problems.push(`args.${argName}: ${p}`);
  }
  const count = options?.count ?? defaults.count;
  const countOk = Number.isInteger(count) && count >= 1;
  if (!countOk) problems.push(`${kind} count must be a whole number of at least 1, got ${count}`);
  const failureLimit = options?.failureLimit ?? defaults.failureLimit;
  if (!(Number.isInteger(failureLimit) && failureLimit >= 0)) {
    problems.push(`${kind} failureLimit must be a whole number of at least 0, got ${failureLimit}`);
  } else if (countOk && failureLimit >= count) {
    problems.push(`${kind} failureLimit must be less than count (${count}), got ${failureLimit}; otherwise the check can never fail`);
  }
  const interval = seconds(problems, `${kind} interval`, options?.interval ?? DEFAULT_INTERVAL);
  const initialDelay = seconds(problems, `${kind} initialDelay`, options?.initialDelay);
  return {
    name: `${name}`,
    args,
    declared: new Set(Object.keys(args)),
    timing: {
      interval: interval !== undefined ? toGoDuration(Duration.seconds(interval)) : undefined,
      initialDelay: initialDelay !== undefined ? toGoDuration(Duration.seconds(initialDelay)) : undefined,
      count,
      failureLimit,
      consecutiveErrorLimit: defaults.boundErrors ? failureLimit : undefined,
      dryRun: options?.dryRun ?? false,
    },
  };
}

function checkArgName(problems: string[], name: string, generated: boolean) {
  if (!ARG_NAME.test(name)) {
    problems.push(`arg name must start with a letter and consist of letters, digits, '_' and '-', got ${JSON.stringify(name)}`);
  }
  if (generated && BUILT_IN_ARGS[name] !== undefined) {
    problems.push(`arg name "${name}" is built in ({{args.${name}}} is always the Kargo ${name}); remove it from args, or pick another name`);
  }
}

/** Header names and values; credentials only as a reference to a Secret arg. */
function checkHeaders(problems: string[], kind: string, headers: Array<[string, string]>, common: CommonOptions): string[] {
  const refs: string[] = [];
  for (const [key, value] of headers) {
    const field = `${kind} header "${key}"`;
    if (!HEADER_NAME.test(key)) problems.push(`${kind} header name is not a valid HTTP header name, got ${JSON.stringify(key)}`);
    const looksSecret = SECRET_LOOKING_HEADER.test(key) || CREDENTIAL_VALUE.test(value);
    const reference = SECRET_REFERENCE.exec(value)?.[1];
    if (looksSecret && !(reference !== undefined && common.args[reference]?.isSecret)) {
      const problem = credentialProblem(field, reference, common,
        `headers: { '${key}': 'Bearer {{args.token}}' } with args: { token: VerificationArg.fromSecret('<secret>', '<key>') }`);
      if (problem) {
        problems.push(problem);
        continue;
      }
    }
    refs.push(...checkText(problems, field, value, common.declared));
  }
  return refs;
}

/**
 * Why a credential-looking header or env value is refused, never showing the value (it may be
 * the credential). Undefined when it references an undeclared arg: that problem is reported
 * on its own and is the one to fix.
 */
function credentialProblem(field: string, reference: string | undefined, common: CommonOptions, example: string): string | undefined {
  if (reference !== undefined && !common.declared.has(reference) && BUILT_IN_ARGS[reference] === undefined) return undefined;
  if (reference !== undefined) {
    return `${field} looks like a credential but {{args.${reference}}} does not come from a Secret; declare it with VerificationArg.fromSecret('<secret>', '<key>')`;
  }
  return `${field} looks like a credential, got a literal value; put it in a Kubernetes Secret in the project namespace: ${example}`;
}

/** Checks a text that ends up in plain sight and returns the args it references; secret args are refused there. */
function publicText(problems: string[], field: string, text: string, common: CommonOptions, why: string): string[] {
  const refs = checkText(problems, field, text, common.declared);
  for (const name of refs) {
    if (common.args[name]?.isSecret) {
      problems.push(`${field} references secret argument {{args.${name}}}; secrets may only be used in headers (or a whole job env value): ${why}`);
    }
  }
  return refs;
}

function checkUrl(problems: string[], field: string, url: string) {
  // Placeholders stand for host names and path segments: probe with a plain word in their place.
  const probe = fillPlaceholders(replaceRolloutsTags(url, 'x'), Object.fromEntries(SYNTH_PLACEHOLDERS.map(p => [p, 'x'])));
  let parsed: URL | undefined;
  try {
    parsed = new URL(probe);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    problems.push(`${field} must be an http:// or https:// URL, got ${JSON.stringify(url)}`);
  } else if (parsed.username || parsed.password) {
    problems.push(`${field} must not carry credentials, got a URL with user info; use a header with a VerificationArg.fromSecret() arg`);
  }
}

function prometheusCondition(problems: string[], options: PrometheusVerificationOptions | undefined): string | undefined {
  const threshold = options?.threshold;
  const comparison = options?.comparison;
  const condition = options?.successCondition;
  if (condition !== undefined) {
    if (threshold !== undefined || comparison !== undefined) {
      problems.push(`prometheus check takes either a successCondition or a threshold with a comparison, got both (successCondition ${JSON.stringify(condition)}, threshold ${threshold}); keep one`);
    }
    if (`${condition}`.trim() === '') problems.push('prometheus successCondition must not be empty, got ""; use e.g. "result[0] < 0.01"');
    return `${condition}`;
  }
  if (threshold === undefined && comparison === undefined) {
    problems.push('prometheus check needs a threshold with a comparison or a successCondition, got neither; '
      + 'e.g. threshold: 0.01, comparison: Comparison.LESS_THAN (passes when result[0] < 0.01)');
    return undefined;
  }
  if (threshold === undefined || typeof threshold !== 'number' || !Number.isFinite(threshold)) {
    problems.push(`prometheus threshold must be a finite number, got ${threshold}; give it with the comparison`);
    return undefined;
  }
  if (comparison === undefined || !Object.values(Comparison).includes(comparison)) {
    problems.push(`prometheus threshold ${threshold} needs a comparison, got ${JSON.stringify(comparison)}; e.g. comparison: Comparison.LESS_THAN`);
    return undefined;
  }
  return `result[0] ${comparison} ${threshold}`;
}

/** Whole seconds of a duration, or undefined (with a problem) when it has none. */
function seconds(problems: string[], field: string, duration: Duration | undefined): number | undefined {
  if (duration === undefined) return undefined;
  const ms = typeof duration?.toMilliseconds === 'function' ? duration.toMilliseconds() : NaN;
  if (!(Number.isFinite(ms) && ms > 0 && ms % 1000 === 0)) {
    problems.push(`${field} must be a positive whole number of seconds, got ${Number.isFinite(ms) ? `${ms / 1000}s` : String(duration)}; use e.g. Duration.seconds(30)`);
    return undefined;
  }
  return ms / 1000;
}

function entries(record: Record<string, string> | undefined): Array<[string, string]> {
  return Object.entries(record ?? {}).map(([k, v]) => [k, `${v}`]);
}

function unique(values: string[]): string[] {
  return [...new Set(values)].sort();
}

function argNameFor(envName: string): string {
  return envName.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'secret';
}
