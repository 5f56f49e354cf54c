import { Duration } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { MetricBuilder } from './check-rules';
import { DEFAULT_JOB_RESOURCES, DEFAULT_JOB_USER, JobEnvVar, renderJobSpec } from './job-spec';
import { VerificationArg } from './verification-arg';
import { VerificationJobOptions } from '../fleet/verification-jobs';

// The JSON guard of an HTTP check with a condition. Argo Rollouts v1.9.1 counts a 2xx answer whose
// body is not JSON as Successful without evaluating the condition
// (metricproviders/webmetric/webmetric.go, parseResponse), and no field of the web provider turns
// that off. So a second metric of the same template, a job metric, makes the same request and
// fails unless the answer is 2xx JSON: the job provider counts a Job that completes as Successful
// and one that fails as Failed (metricproviders/job/job.go, Resume), and the AnalysisRun passes
// only when both metrics pass.

/**
 * The image the guard runs: the script needs only Node's built-in fetch. The official
 * `node:22-alpine`, fully qualified so runtimes that refuse short names (CRI-O) pull it too; a
 * major-version tag, so security fixes arrive without a library release (Node 22 is in long-term
 * support until 2027-04). Pulled if not present: a guard runs a Job per measurement and cluster.
 * @internal
 */
export const JSON_GUARD_IMAGE = 'docker.io/library/node:22-alpine';

/** The guard's image: Docker Hub's, or the same image through the fleet's registry. @internal */
export function jsonGuardImage(jobs: VerificationJobOptions | undefined): string {
  return jobs?.imageRegistry !== undefined ? JSON_GUARD_IMAGE.replace(/^docker\.io\//, `${jobs.imageRegistry}/`) : JSON_GUARD_IMAGE;
}

/** Appended to the web metric's name to name its guard. @internal */
export const JSON_GUARD_SUFFIX = '-answers-json';

/**
 * The request, passed in the environment so the script is one constant. The URL and method are
 * the web metric's url and method verbatim, which is how the test kit's model recognises the
 * guard of a web metric. @internal
 */
export const JSON_GUARD_ENV = {
  URL: 'CHECK_URL',
  METHOD: 'CHECK_METHOD',
  BODY: 'CHECK_BODY',
  TIMEOUT_SECONDS: 'CHECK_TIMEOUT_SECONDS',
  /** `CHECK_HEADER_<i>_NAME` and `CHECK_HEADER_<i>_VALUE`, i from 0. */
  HEADER_PREFIX: 'CHECK_HEADER_',
} as const;

/**
 * Exits 0 only when the answer is 2xx and its body parses as JSON; otherwise prints one line
 * saying why (never a request header value) and exits 1. A text is read from `NAME`, or, when it
 * holds secrets, from `NAME_0`, `NAME_1`, ... in order (literal parts and parts read from a
 * Secret). The body is sent as bytes so fetch adds no Content-Type the web metric would not send,
 * and decoded without dropping a byte order mark, which Go's encoding/json refuses too.
 * No `{{` anywhere: Argo Rollouts would take it for an argument.
 * @internal
 */
export const JSON_GUARD_SCRIPT = [
  'const env = process.env;',
  'const text = (name) => {',
  '  if (env[name] !== undefined) return env[name];',
  '  let value;',
  "  for (let i = 0; env[name + '_' + i] !== undefined; i++) value = (value || '') + env[name + '_' + i];",
  '  return value;',
  '};',
  "const fail = (why) => { console.log('answers-json: ' + why); process.exit(1); };",
  `const url = env.${JSON_GUARD_ENV.URL};`,
  `const seconds = Number(env.${JSON_GUARD_ENV.TIMEOUT_SECONDS} || '10');`,
  'const headers = new Headers();',
  `for (let i = 0; env['${JSON_GUARD_ENV.HEADER_PREFIX}' + i + '_NAME'] !== undefined; i++) {`,
  `  const name = env['${JSON_GUARD_ENV.HEADER_PREFIX}' + i + '_NAME'];`,
  `  try { headers.set(name, text('${JSON_GUARD_ENV.HEADER_PREFIX}' + i + '_VALUE') || ''); } catch (e) { fail('header ' + name + ' has a value fetch refuses'); }`,
  '}',
  `const body = text('${JSON_GUARD_ENV.BODY}');`,
  'const main = async () => {',
  '  let answer;',
  '  let bytes;',
  '  try {',
  `    answer = await fetch(url, { method: env.${JSON_GUARD_ENV.METHOD} || 'GET', headers, body: body === undefined ? undefined : Buffer.from(body),`,
  '      signal: AbortSignal.timeout(seconds * 1000) });',
  '    bytes = Buffer.from(await answer.arrayBuffer());',
  '  } catch (e) {',
  "    if (e && e.name === 'TimeoutError') fail('no answer from ' + url + ' within ' + seconds + 's');",
  "    fail('request to ' + url + ' failed: ' + ((e && e.cause && (e.cause.code || e.cause.message)) || (e && e.message) || e));",
  '  }',
  "  if (answer.status < 200 || answer.status > 299) fail(url + ' answered ' + answer.status + ', not 2xx');",
  "  const type = answer.headers.get('content-type') || 'no content-type';",
  "  try { JSON.parse(bytes.toString('utf8')); } catch (e) {",
  "    fail(url + ' answered ' + answer.status + ' with a body that is not JSON (' + type + ', ' + bytes.length + ' bytes): '",
  "      + JSON.stringify(bytes.toString('utf8').slice(0, 80)));",
  '  }',
  "  console.log('answers-json: ' + url + ' answered ' + answer.status + ' with JSON');",
  '};',
  'main();',
].join('\n');

/** How long a guard's Job may run beyond the request timeout: scheduling and pulling the image. */
const JOB_ALLOWANCE_SECONDS = 120;
const SECRET_ARG_REFERENCE = /\{\{\s*args\.([^}\s]+)\s*\}\}/g;

/** The request the guard repeats, as the web metric makes it (texts before placeholders are filled). @internal */
export interface GuardedRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Array<[string, string]>;
  readonly body: string | undefined;
  readonly timeoutSeconds: number | undefined;
  readonly insecure: boolean;
  readonly args: Record<string, VerificationArg>;
  /** The image with `node` the guard runs, when the check names one. */
  readonly image: string | undefined;
}

/** The job metric body of the guard of a web metric. @internal */
export function jsonGuardBuilder(request: GuardedRequest): MetricBuilder {
  return (fill, labels, jobs) => {
    const env: JobEnvVar[] = [
      { name: JSON_GUARD_ENV.URL, value: fill(request.url) },
      { name: JSON_GUARD_ENV.METHOD, value: request.method },
      ...request.headers.flatMap(([key, value], i) => [
        { name: `${JSON_GUARD_ENV.HEADER_PREFIX}${i}_NAME`, value: key },
        ...textEnv(`${JSON_GUARD_ENV.HEADER_PREFIX}${i}_VALUE`, fill(value), request.args),
      ]),
      ...(request.body !== undefined ? textEnv(JSON_GUARD_ENV.BODY, fill(request.body), request.args) : []),
      { name: JSON_GUARD_ENV.TIMEOUT_SECONDS, value: `${request.timeoutSeconds ?? 10}` },
      // Like the web provider's insecure transport (InsecureSkipVerify), and only when asked.
      ...(request.insecure ? [{ name: 'NODE_TLS_REJECT_UNAUTHORIZED', value: '0' }] : []),
    ];
    return {
      provider: {
        job: {
          metadata: { labels },
          spec: renderJobSpec({
            image: request.image ?? jsonGuardImage(jobs),
            imagePullPolicy: kplus.ImagePullPolicy.IF_NOT_PRESENT,
            // --no-warnings: the one line the script prints is the whole log, even when insecure.
            command: ['node', '--no-warnings', '-e', JSON_GUARD_SCRIPT],
            env,
            backoffLimit: 0,
            activeDeadline: Duration.seconds((request.timeoutSeconds ?? 10) + JOB_ALLOWANCE_SECONDS),
            user: DEFAULT_JOB_USER,
            resources: DEFAULT_JOB_RESOURCES,
            labels,
            // Node.js reads its own root store, not the system's: this adds the platform's CA to it
            caBundle: jobs?.caBundle ? { bundle: jobs.caBundle, env: 'NODE_EXTRA_CA_CERTS' } : undefined,
          }),
        },
      },
    };
  };
}

/**
 * One text as env vars: `name` when it references no secret arg, else `name_0`, `name_1`, ...,
 * each a literal part or a part read from the Secret by the kubelet, so the secret never lands in
 * the Job object (Argo Rollouts would substitute a `{{args.x}}` left in it).
 */
function textEnv(name: string, text: string, args: Record<string, VerificationArg>): JobEnvVar[] {
  const parts: JobEnvVar[] = [];
  let literal = '';
  let last = 0;
  for (const m of text.matchAll(SECRET_ARG_REFERENCE)) {
    const arg = args[m[1]];
    if (!arg?.isSecret) continue;
    literal += text.slice(last, m.index);
    if (literal !== '') parts.push({ name: '', value: literal });
    parts.push({ name: '', secretName: arg.secretName, secretKey: arg.secretKey });
    literal = '';
    last = m.index! + m[0].length;
  }
  if (parts.length === 0) return [{ name, value: text }];
  literal += text.slice(last);
  if (literal !== '') parts.push({ name: '', value: literal });
  return parts.map((p, i) => ({ ...p, name: `${name}_${i}` }));
}
