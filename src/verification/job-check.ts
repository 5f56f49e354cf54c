import { Duration } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { VerificationKind, VerificationOptions } from './check-options';
import {
  argNameFor, CheckParts, CommonOptions, commonOptions, credentialProblem, entries, generatedCheck, imageReferenceProblem, JOB_DEFAULTS,
  MetricBuilder, publicText, seconds,
} from './check-rules';
import { DEFAULT_JOB_RESOURCES, DEFAULT_JOB_USER, JobEnvVar, JobSpecInput, renderJobSpec } from './job-spec';
import { usesClusterPlaceholder } from './placeholders';
import { VerificationArg } from './verification-arg';
import { call, field as fieldOf, fieldText, hint, num, prop } from '../util/code-hint';
import { cdk8sProblem, describe } from '../util/errors';

const ENV_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;
const SECRET_LOOKING_ENV = /(TOKEN|SECRET|PASSWORD|PASSWD|PRIVATE|CREDENTIAL|API_?KEY|_KEY$|^KEY$)/i;
const WHOLE_ARG_REFERENCE = /^\s*\{\{\s*args\.([^}\s]+)\s*\}\}\s*$/;

/**
 * Options for `Verification.job()`. The container runs in the hub cluster, in the Kargo project
 * namespace, as a non-root user with a read-only root filesystem (a writable `/tmp`), no
 * service account token and no capabilities, under the runtime's seccomp profile (Pod Security
 * `restricted`); it reaches the clusters over the network, trusting the fleet's
 * `verificationJobs.caBundle` through `SSL_CERT_FILE`. It passes when it exits 0.
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

/** Resolves `Verification.job()`. @internal */
export function jobCheck(options: JobVerificationOptions): CheckParts {
  const problems: string[] = [];
  const common = commonOptions(VerificationKind.JOB, options, JOB_DEFAULTS, problems);
  const refs: string[] = [];
  const texts: string[] = [];
  const image = `${options?.image ?? ''}`;
  const imageProblem = imageReferenceProblem(image);
  if (imageProblem) {
    problems.push(describe(fieldOf('job', prop('image')), options?.image, imageProblem, 'use e.g. "ghcr.io/acme/smoke-tests:1.4.0"'));
  }
  const imageRefs = publicText(problems, fieldText(fieldOf('job', prop('image'))), image, common, 'the image reference is public');
  refs.push(...imageRefs);
  texts.push(image);
  const lists: Array<[string, string[] | undefined]> = [[fieldText(fieldOf('job', prop('command'))), options?.command], [fieldText(fieldOf('job', prop('containerArgs'))), options?.containerArgs]];
  for (const [field, list] of lists) {
    (list ?? []).forEach((item, i) => {
      const itemRefs = publicText(problems, `${field}[${i}]`, `${item}`, common, 'it would be copied into the Job object; pass it through env instead');
      refs.push(...itemRefs);
      texts.push(`${item}`);
    });
  }
  const env = jobEnv(problems, options?.env, common, refs, texts);
  const backoffLimit = options?.backoffLimit ?? 0;
  if (!(Number.isInteger(backoffLimit) && backoffLimit >= 0)) {
    problems.push(describe(fieldOf('job', prop('backoffLimit')), backoffLimit, 'must be a whole number of at least 0'));
  }
  const activeDeadline = options?.activeDeadline ?? Duration.minutes(10);
  seconds(problems, fieldText(fieldOf('job', prop('activeDeadline'))), activeDeadline);
  const user = options?.user ?? DEFAULT_JOB_USER;
  if (!(Number.isInteger(user) && user > 0)) {
    problems.push(describe(fieldOf('job', prop('user')), user, 'must be a whole number above 0 (not root)', 'use e.g. 65532'));
  }
  const resources = options?.resources ?? DEFAULT_JOB_RESOURCES;
  if (problems.length === 0) problems.push(...trialRender({ image, env: [], backoffLimit, activeDeadline, user, resources, labels: {} }));
  const perCluster = texts.some(usesClusterPlaceholder);
  const build: MetricBuilder = (fill, labels, jobs) => ({
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
          // OpenSSL, curl, Go and Python's ssl read the bundle named here instead of the system store
          caBundle: jobs?.caBundle ? { bundle: jobs.caBundle, env: 'SSL_CERT_FILE' } : undefined,
        }),
      },
    },
  });
  return generatedCheck(VerificationKind.JOB, common, refs, perCluster, build, problems);
}

/**
 * cdk8s-plus converts resources and the deadline when it renders: render once when the check is
 * declared, so a value it refuses fails there, naming the field, and not at synth.
 */
function trialRender(input: JobSpecInput): string[] {
  const refused = cdk8sProblem(fieldText(fieldOf('job', prop('resources'), 'or', prop('activeDeadline'))),
    hint`give memory and storage in whole mebibytes (e.g. ${call('Size', 'mebibytes', num(256))}), `
    + hint`CPU with ${call('Cpu', 'millis')} or ${call('Cpu', 'units')}, and ${prop('activeDeadline')} in whole seconds`, () => renderJobSpec(input));
  return refused ? [refused] : [];
}

/**
 * The Job's env: a whole `{{args.<name>}}` value of a Secret arg is read from the Secret by the
 * kubelet, anything else is copied into the Job object, so credentials are refused there.
 * Adds the args referenced to `refs` and the texts to `texts`.
 */
function jobEnv(problems: string[], envOptions: Record<string, string> | undefined, common: CommonOptions, refs: string[],
  texts: string[]): Array<[string, string, VerificationArg | undefined]> {
  const env: Array<[string, string, VerificationArg | undefined]> = [];
  for (const [name, value] of entries(envOptions)) {
    const field = fieldText(fieldOf('job', prop('env'), name));
    if (!ENV_NAME.test(name)) {
      problems.push(describe(fieldOf('job', prop('env'), 'name'), name, "must consist of letters, digits, '_', '-' or '.', and not start with a digit"));
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
  return env;
}
