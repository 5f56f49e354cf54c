// Every string a user hands the library may end up in a manifest (committed to Git), a report or
// a message. Rather than trusting each field to remember, the constructs walk everything they
// were given, once, and refuse any string that holds a credential (`findSecrets`, the one rule),
// and any non-empty literal under a key only credentials have (`password`, `token`, ...).

import { prop } from './code-hint';
import { describe, ProblemList, show } from './errors';
import { SECRET_MASK, secretIn } from './redact';

/**
 * Keys whose value is a credential wherever they appear (Helm values, environment variables,
 * labels): compared in lowercase without `-` and `_`. Not `secretName`/`secretKey`, which name a
 * Secret and a key in it.
 */
const CREDENTIAL_KEYS = new Set([
  'password', 'passwd', 'pwd', 'token', 'secret', 'apikey', 'privatekey', 'clientsecret', 'accesstoken', 'refreshtoken',
  'authtoken', 'bearertoken', 'secretaccesskey', 'awssecretaccesskey', 'sshprivatekey', 'githubappprivatekey', 'keydata', 'certdata',
  'gcpserviceaccountkey', 'secrettoken', 'authheader',
]);

/**
 * A value under a credential key that is not a credential: a reference to one (`${{ secret(...) }}`,
 * `$(TOKEN)`, `{{args.token}}`, `<token>`), a switch or a number (`secret: "true"`), too short.
 */
const NOT_A_CREDENTIAL = /^\s*(\$\{|\$\(|\{\{|<|\*\*\*)|^(true|false|yes|no|on|off|enabled|disabled|none|null|[0-9]+)$|^.{0,3}$/i;

/** What the fix for a refused credential is. */
const FIX = 'never put a credential in a definition (it would be committed with the manifests): reference it, '
  + 'e.g. a Secret another system fills (RepositoryCredentials.managedSecret, VerificationArg.secret) or a workload identity';

/** Fields value objects keep what they were given in, which the user's code never names. */
const INTERNAL = /^(_.*|options|props|generic)$/;

/** How deep a walk goes: definitions are shallow, and a deeper graph is not a definition. */
const MAX_DEPTH = 12;

/**
 * Adds a problem for every string under `value` (own enumerable properties, arrays, nested
 * objects; constructs, functions and cdk8s tokens are skipped) that holds a credential, named by
 * its path from `root`. The message shows the value redacted.
 * @internal
 */
export function secretMaterialProblems(problems: ProblemList, root: string | undefined, value: unknown): void {
  const seen = new Set<object>();
  const walk = (v: unknown, path: Array<string | number>, key: string | undefined, depth: number): void => {
    if (typeof v === 'string') {
      const found = secretIn(v);
      if (found !== undefined) {
        problems.add(describe(prop(...path), v, `holds secret material (${found})`, FIX));
      } else if (key !== undefined && isCredentialKey(key) && !NOT_A_CREDENTIAL.test(v.trim())) {
        // the rule does not know the value for a credential: the message masks all of it
        problems.add(describe(prop(...path), v, `holds secret material (a value under ${JSON.stringify(key)})`, FIX, () => show(SECRET_MASK)));
      }
      return;
    }
    if (v === null || typeof v !== 'object' || depth > MAX_DEPTH || seen.has(v) || isConstructLike(v)) return;
    seen.add(v);
    if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, [...path, i], key, depth + 1));
      return;
    }
    for (const [k, item] of Object.entries(v)) {
      // problems a value object recorded are messages about what is walked here anyway
      if (k === '_problems' || typeof item === 'function') continue;
      // a value object's own fields (`options`, `_type`) are not in the user's code: the path
      // names what the user wrote (`source.values.db.password`)
      walk(item, INTERNAL.test(k) ? path : [...path, k], k, depth + 1);
    }
  };
  walk(value, root === undefined ? [] : [root], root, 0);
}

/**
 * The problems `secretMaterialProblems` finds under `value`, for a value object that keeps its
 * problems until the construct that holds it reports them (`ClusterAuth`).
 * @internal
 */
export function secretMaterialMessages(root: string | undefined, value: unknown): string[] {
  const problems = new ProblemList('');
  secretMaterialProblems(problems, root, value);
  return [...problems.messages];
}

/**
 * Throws, as `subject`, every credential `secretMaterialProblems` finds under `value`. Run before
 * any other check of the same input, so that no other message quotes a credential.
 * @internal
 */
export function refuseSecretMaterial(subject: string, value: unknown): void {
  const problems = new ProblemList(subject);
  secretMaterialProblems(problems, undefined, value);
  problems.throwIfAny();
}

function isCredentialKey(key: string): boolean {
  return CREDENTIAL_KEYS.has(key.toLowerCase().replace(/[-_]/g, ''));
}

/** Constructs (a fleet, a pipeline passed in props) are walked by their own checks, not by whoever holds them. */
function isConstructLike(v: object): boolean {
  return typeof (v as { node?: unknown }).node === 'object' && (v as { node?: { path?: unknown } }).node?.path !== undefined;
}
