import { field, prop } from '../util/code-hint';
import { describe } from '../util/errors';
import { dns1123SubdomainProblem } from '../util/names';

/**
 * A CA bundle the platform provides to every Kargo project namespace as a ConfigMap (e.g. with
 * cert-manager's trust-manager, a `Bundle` whose target selects the namespaces labelled
 * `kargo.akuity.io/project: "true"`).
 */
export interface CaBundle {
  /** The ConfigMap's name; it must exist in every Kargo project namespace. */
  readonly configMapName: string;
  /**
   * The key holding the PEM certificates.
   * @default 'ca.crt'
   */
  readonly key?: string;
}

/**
 * How the pods of verification Jobs (the JSON guard of HTTP checks and `Verification.job()`) are
 * set up on the hub, once for every app of the fleet. They run in each app's Kargo project
 * namespace, where Argo Rollouts creates them.
 */
export interface VerificationJobOptions {
  /**
   * Certificates the Jobs trust besides the public ones, for endpoints behind a private CA:
   * mounted read-only at `/etc/gitops-platform/ca/`; the JSON guard reads it through
   * `NODE_EXTRA_CA_CERTS` (Node.js ignores the system store, so it adds to its built-in roots),
   * a job check's container gets `SSL_CERT_FILE` (OpenSSL, curl, Go and Python's `ssl` use it
   * *instead of* the system store, so the bundle should hold the public roots too, as
   * trust-manager's `useDefaultCAs: true` does) unless its env sets `SSL_CERT_FILE` itself.
   * @default - none: only the image's and Node.js's built-in roots
   */
  readonly caBundle?: CaBundle;
  /**
   * The registry the hub pulls Docker Hub images through (a pull-through cache or mirror, e.g.
   * Harbor's proxy project `harbor.acme.internal/dockerhub`): the JSON guard's image becomes
   * `<imageRegistry>/library/node:22-alpine` instead of `docker.io/library/node:22-alpine`. A
   * check's own `jsonGuardImage` still wins; `Verification.job()` images are the check's own.
   * @default - Docker Hub
   */
  readonly imageRegistry?: string;
}

const CONFIG_MAP_KEY = /^[-._a-zA-Z0-9]+$/;
const REGISTRY = /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:[0-9]+)?(\/[a-z0-9]+([._-][a-z0-9]+)*)*$/;

/** What is wrong with the options, each naming its field. @internal */
export function verificationJobProblems(options: VerificationJobOptions | undefined): string[] {
  const problems: string[] = [];
  const ca = options?.caBundle;
  if (ca !== undefined) {
    const nameProblem = dns1123SubdomainProblem(`${ca.configMapName ?? ''}`);
    if (nameProblem) problems.push(describe(field(prop('verificationJobs'), prop('caBundle'), prop('configMapName')), ca.configMapName, nameProblem));
    if (ca.key !== undefined && !(CONFIG_MAP_KEY.test(`${ca.key}`) && ca.key !== '.' && ca.key !== '..')) {
      problems.push(describe(field(prop('verificationJobs'), prop('caBundle'), prop('key')), ca.key, "must consist of letters, digits, '-', '_' or '.'", 'use e.g. "ca.crt"'));
    }
  }
  const registry = options?.imageRegistry;
  if (registry !== undefined && !REGISTRY.test(`${registry}`)) {
    problems.push(describe(field(prop('verificationJobs'), prop('imageRegistry')), registry, 'must be a registry host with an optional port and path, without a scheme or trailing slash',
      'use e.g. "harbor.acme.internal/dockerhub"'));
  }
  return problems;
}
