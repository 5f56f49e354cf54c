import { Duration } from 'cdk8s';
import { VerificationKind, VerificationOptions } from './check-options';
import { checkHeaders, CheckParts, commonOptions, entries, generatedCheck, imageReferenceProblem, MetricBuilder, PROBE_DEFAULTS, publicUrl, seconds } from './check-rules';
import { jobSafeMetricName } from './job-names';
import { jsonGuardBuilder, JSON_GUARD_SUFFIX } from './json-guard';
import { metricConditionProblem } from './metric-condition';
import { checkText, replaceRolloutsTags, usesClusterPlaceholder } from './placeholders';
import { enumMember, field as fieldOf, fieldText, hint, prop } from '../util/code-hint';
import { describe } from '../util/errors';
import { goProblem } from '../util/go-parsers';

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
 * Options for `Verification.http()`.
 *
 * A measurement succeeds when the endpoint answers 2xx and `successCondition` holds for the
 * value at `jsonPath`. Non-2xx answers, timeouts and unreachable endpoints are errors.
 *
 * Argo Rollouts 1.9 counts a 2xx answer whose body is not JSON as a success without evaluating
 * the condition (`metricproviders/webmetric/webmetric.go`), so a check with a condition would
 * pass whenever the endpoint answers plain text (an error page, a proxy's 200). So a check with
 * a condition (`requireJson`) gets a second metric in its AnalysisTemplate, `<metric>-answers-json`
 * (for a metric name over 9 characters, its first 16 characters and a hash, e.g.
 * `version-aws-use1-01b5a06-answers-json`: Argo Rollouts cuts a job metric's name to about 24
 * characters in its Job's name, and a cut name must stay valid and unique): a Kubernetes Job on
 * the hub (image `docker.io/library/node:22-alpine`, non-root, read-only root filesystem, no
 * service account token, Pod Security `restricted`) that makes the same request, on the same schedule and with the same
 * count and limits, and fails unless the answer is 2xx and JSON. The template passes only when
 * both metrics pass: the web metric says the condition held on the JSON it got, the guard that
 * the endpoint answered JSON. The two make separate requests, so an endpoint that only
 * sometimes answers plain text can slip past one measurement; `failureLimit` bounds how many.
 * Secret headers reach the Job through `secretKeyRef`, never in the Job object. The hub must
 * be able to pull the image and reach the endpoint from a pod of the Kargo project namespace.
 */
export interface HttpVerificationOptions extends VerificationOptions {
  /**
   * The URL (http or https). It may use `{cluster}`, `{region}`, `{provider}`, `{accelerator}`,
   * `{tier}`, `{stage}` and `{namespace}` (the app's namespace in the stage), filled for each
   * cluster, and `{{args.<name>}}`, e.g.
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
  /**
   * Add the JSON guard: a Job metric that fails unless the endpoint answers 2xx JSON, so a
   * plain-text answer cannot pass the condition unevaluated (see `HttpVerificationOptions`).
   * Turn it off only for an endpoint you know answers JSON; the test kit's controller model
   * (`simulateControllers()`) still reports the unguarded metric.
   * @default - true when `successCondition` is given (and not `'true'`), else false
   */
  readonly requireJson?: boolean;
  /**
   * The image the JSON guard runs: any image with Node.js 18 or later as `node` on its PATH.
   * @default - 'docker.io/library/node:22-alpine', through the fleet's
   * `verificationJobs.imageRegistry` when it has one
   */
  readonly jsonGuardImage?: string;
}

/** Resolves `Verification.http()`. @internal */
export function httpCheck(options: HttpVerificationOptions): CheckParts {
  const problems: string[] = [];
  const common = commonOptions(VerificationKind.HTTP, options, PROBE_DEFAULTS, problems);
  const refs: string[] = [];
  const url = `${options?.url ?? ''}`;
  refs.push(...publicUrl(problems, fieldText(fieldOf('http', prop('url'))), url, common, 'error messages and logs show the url'));
  const method = options?.method ?? HttpMethod.GET;
  if (!Object.values(HttpMethod).includes(method)) {
    problems.push(describe(fieldOf('http', prop('method')), method, 'must be GET, POST or PUT'));
  }
  const body = options?.body;
  if (body !== undefined) {
    if (method === HttpMethod.GET) {
      problems.push(describe(fieldOf('http', prop('method')), method, 'must be POST or PUT to send a body', hint`set ${prop('method')}: ${enumMember('HttpMethod', 'POST')} or drop the ${prop('body')}`));
    }
    refs.push(...checkText(problems, fieldText(fieldOf('http', prop('body'))), `${body}`, common.declared));
  }
  const headers = entries(options?.headers);
  refs.push(...checkHeaders(problems, 'http', headers, common));
  const jsonPath = options?.jsonPath ?? '{$}';
  if (!/^\{[\s\S]*\}$/.test(jsonPath)) {
    problems.push(describe(fieldOf('http', prop('jsonPath')), jsonPath, 'must be a Kubernetes JSONPath in braces', 'use e.g. "{$.status}"'));
  } else {
    // Rollouts fills the args before it parses (webmetric.go NewWebMetricJsonParser, client-go util/jsonpath)
    const error = goProblem('jsonpath', replaceRolloutsTags(jsonPath, 'x'));
    if (error) {
      problems.push(describe(fieldOf('http', prop('jsonPath')), jsonPath, `is refused by the JSONPath parser Argo Rollouts v1.9.1 uses (client-go util/jsonpath: ${error})`,
        'use e.g. "{$.status}" or "{$.checks[?(@.name==\'db\')].status}"'));
    }
  }
  refs.push(...checkText(problems, fieldText(fieldOf('http', prop('jsonPath'))), jsonPath, common.declared));
  const condition = options?.successCondition;
  if (condition !== undefined) {
    if (`${condition}`.trim() === '') problems.push(describe(fieldOf('http', prop('successCondition')), condition, 'must not be empty', 'omit it to accept every 2xx answer'));
    refs.push(...checkText(problems, fieldText(fieldOf('http', prop('successCondition'))), `${condition}`, common.declared));
    const problem = `${condition}`.trim() === '' ? undefined : metricConditionProblem(`${condition}`, 'any', common.args);
    if (problem) problems.push(describe(fieldOf('http', prop('successCondition')), condition, problem, "fix the expression, e.g. \"result == 'UP'\""));
  } else if (options?.jsonPath !== undefined) {
    problems.push(describe(fieldOf('http', prop('jsonPath')), options.jsonPath, hint`is given without a ${prop('successCondition')}, so it checks nothing`, hint`add e.g. ${prop('successCondition')}: "result == 'UP'"`));
  }
  const timeoutSeconds = seconds(problems, fieldText(fieldOf('http', prop('timeout'))), options?.timeout);
  const perCluster = [url, body ?? '', ...headers.map(([, v]) => v)].some(usesClusterPlaceholder);
  const requireJson = options?.requireJson ?? (condition !== undefined && `${condition}`.trim() !== 'true');
  const image = options?.jsonGuardImage;
  const imageProblem = image === undefined ? undefined : imageReferenceProblem(`${image}`);
  if (image !== undefined && (!requireJson || imageProblem)) {
    problems.push(requireJson
      ? describe(fieldOf('http', prop('jsonGuardImage')), image, imageProblem!, 'use e.g. "registry.acme.internal/library/node:22-alpine"')
      : describe(fieldOf('http', prop('jsonGuardImage')), image, 'is given but the check has no JSON guard', hint`remove it, or set a ${prop('successCondition')}`));
  }
  const guard = requireJson ? {
    name: (metricName: string) => jobSafeMetricName(metricName, JSON_GUARD_SUFFIX),
    build: jsonGuardBuilder({
      url, method, headers, body, timeoutSeconds, insecure: options?.insecure === true, args: common.args, image,
    }),
  } : undefined;
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
  return generatedCheck(VerificationKind.HTTP, common, refs, perCluster, build, problems, guard);
}
