// The one rule for what a credential looks like. Everything the library writes for people or
// for Git passes through it: error messages (`userError`), the reports, the plan's Markdown and
// JSON, the command line's output; and every string a user hands the library is checked with it
// (`secretMaterialProblems`), so a credential is refused before it can reach a manifest.
// Detection and redaction are one function: what is masked is exactly what is found.

/** What messages show in place of a credential. @internal */
export const SECRET_MASK = '***';

/** One credential found in a text: what it is and where (the characters to mask). @internal */
export interface SecretSpan {
  /** What kind of credential, for messages: `a GitHub token`, `a private key (PEM)`. */
  readonly kind: string;
  readonly start: number;
  readonly end: number;
}

/** Query parameters that carry credentials (pre-signed URLs, GitLab/GitHub tokens, API keys, Azure SAS). */
const SECRET_QUERY_KEYS = /^(token|access_token|private_token|auth|auth_token|api_key|apikey|key|password|passwd|pwd|secret|client_secret|sig|signature|x-amz-signature|x-amz-credential|x-amz-security-token|x-goog-signature|x-goog-credential|sv|se)$/i;

/**
 * Tokens recognisable by their prefix. The shapes follow the issuers' documented formats (and
 * secretlint's recommended preset, which the tests run over all output as a second opinion).
 */
const TOKEN_PATTERNS: ReadonlyArray<readonly [string, readonly string[], RegExp]> = [
  // [kind, texts one of which every match contains (searched first: String.includes is far cheaper than a pattern), pattern]
  ['a GitHub token', ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'], /\bgh[pousr]_[A-Za-z0-9]{20,}/g],
  ['a GitHub token', ['github_pat_'], /\bgithub_pat_[A-Za-z0-9_]{20,}/g],
  ['a GitLab token', ['glpat-', 'glptt-', 'gldt-', 'glrt-', 'glcbt-', 'glsoat-', 'glft-', 'glimt-', 'glagent-', 'gloas-'], /\b(glpat|glptt|gldt|glrt|glcbt|glsoat|glft|glimt|glagent|gloas)-[A-Za-z0-9_-]{16,}/g],
  ['a GitLab token', ['GR1348941'], /\bGR1348941[A-Za-z0-9_-]{16,}/g],
  ['an AWS access key', ['AKIA', 'ASIA'], /\b(AKIA|ASIA)[0-9A-Z]{16}\b/g],
  ['a Slack token', ['xox'], /\bxox[abposr]-[A-Za-z0-9-]{10,}/g],
  ['a Slack webhook', ['hooks.slack.com'], /\bhooks\.slack\.com\/(services|workflows)\/[A-Za-z0-9/_-]{20,}/g],
  ['an npm token', ['npm_'], /\bnpm_[A-Za-z0-9]{36}\b/g],
  ['a PyPI token', ['pypi-AgE'], /\bpypi-AgE[A-Za-z0-9_-]{20,}/g],
  ['a Docker Hub token', ['dckr_pat_'], /\bdckr_pat_[A-Za-z0-9_-]{20,}/g],
  ['an API key', ['_live_', '_test_'], /\b(sk|rk)_(live|test)_[A-Za-z0-9]{16,}/g],
  ['an API key', ['sk-'], /\bsk-(ant-|proj-)?[A-Za-z0-9_-]{20,}/g],
  ['a Hugging Face token', ['hf_'], /\bhf_[A-Za-z0-9]{30,}/g],
  ['a Google API key', ['AIza'], /\bAIza[0-9A-Za-z_-]{35}/g],
  ['a SendGrid key', ['SG.'], /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g],
  ['an API key', ['shpat_', 'shpss_', 'shpca_', 'shppa_'], /\b(shpat|shpss|shpca|shppa)_[a-fA-F0-9]{32}/g],
  ['an API key', ['lin_api_'], /\blin_api_[A-Za-z0-9]{32,}/g],
  ['an API key', ['dop_v1_'], /\bdop_v1_[a-f0-9]{64}/g],
  ['a JSON Web Token', ['eyJ'], /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g],
];

/** A PEM private key block (RSA, EC, OpenSSH, PKCS#8, encrypted, PGP), up to its end line or the end of the text. */
const PEM_PRIVATE_KEY = /-----BEGIN ((RSA|EC|DSA|OPENSSH|ENCRYPTED|PGP) )?PRIVATE KEY( BLOCK)?-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY( BLOCK)?-----|$)/g;

/**
 * A base64 text that begins with `-----BEGIN` (`LS0tLS1CRUdJTi`): a PEM block encoded once more,
 * as Kubernetes Secrets and kubeconfigs carry them. A private key is refused; a certificate
 * (`caData`) is public and passes.
 */
const BASE64_PEM = /LS0tLS1CRUdJTi[A-Za-z0-9+/=\s\\n]*/g;

/** `scheme://user:pass@` or `scheme://token@`: the userinfo of a URL (matched from the `://`, which is rare, not from every word). */
const URL_USERINFO = /:\/\/([^\s/?#@"'<>]+)@/g;

/**
 * `user:password@host` without a scheme (a registry or a Git remote written as `host/path`).
 * `git@github.com:acme/x` (no password) and `image:tag@sha256:...` (no host after the `@`) are
 * not credentials.
 */
const BARE_USERINFO = /:([^\s@/:"'<>]+)@(?=[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b|localhost\b|\d{1,3}(\.\d{1,3}){3}\b)/g;
/** The user name before a bare `:password@`, read backwards from the colon; not part of a path or a URL. */
const USER_CHAR = /[A-Za-z0-9._%+~-]/;
const NOT_BEFORE_USER = /[\w/:.@%+-]/;

/** `?token=...` / `&sig=...`: the value of a credential query parameter. */
const QUERY_PARAM = /[?&]([^=&\s"'#]+)=([^&\s"'#]*)/g;

/** `Authorization: Bearer <token>` or `Basic <base64>`. */
const AUTH_SCHEME = /\b(Bearer|Basic)\s+([A-Za-z0-9._~+/-]{12,}=*)/g;

/**
 * `password=...`, `token: ...`, `aws_secret_access_key = ...`: a value assigned to a name that
 * only credentials have. A reference (`${{ secret('x') }}`, `$(TOKEN)`, `{{args.token}}`,
 * `<token>`, a call such as `VerificationArg.secret(`) is not a value, nor is an authorization
 * scheme alone (`'X-Token': 'Bearer {{args.token}}'`: the token after the scheme is
 * `AUTH_SCHEME`'s to find).
 */
const ASSIGNMENT = /\b(password|passwd|pwd|secret|client[_-]?secret|token|access[_-]?token|auth[_-]?token|api[_-]?key|private[_-]?key|secret[_-]?access[_-]?key|aws[_-]?secret[_-]?access[_-]?key)["']?\s*[:=]\s*["']?([^\s"',;&]{6,})/gi;
/** What every name `ASSIGNMENT` matches contains, in lowercase: most texts have none. */
const ASSIGNMENT_WORDS = ['pass', 'pwd', 'secret', 'token', 'key'];
const REFERENCE = /^(\$\{|\$\(|\{\{|<|\*\*\*|%|\$[A-Z_]|(Bearer|Basic)$|[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)+\($)/;

/** A URL user name that is a token (GitHub and GitLab accept a token as the user), not a name. */
function tokenLike(user: string): boolean {
  return user.length >= 16 && /^[A-Za-z0-9_-]+$/.test(user) && /[0-9]/.test(user) && /[A-Za-z]/.test(user);
}

/**
 * Every credential in `text`, by kind and position, overlapping ones merged (the widest kept).
 * @internal
 */
export function findSecrets(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  const add = (kind: string, start: number, end: number) => {
    if (end > start) spans.push({ kind, start, end });
  };
  const has = (needle: string) => text.includes(needle);
  for (const m of has('://') && has('@') ? text.matchAll(URL_USERINFO) : []) {
    const user = m[1];
    const start = m.index! + 3;
    const colon = user.indexOf(':');
    if (colon >= 0 ? colon < user.length - 1 : tokenLike(user)) add('credentials in a URL', start, start + user.length);
  }
  for (const m of has(':') && has('@') ? text.matchAll(BARE_USERINFO) : []) {
    let start = m.index!;
    while (start > 0 && USER_CHAR.test(text[start - 1])) start--;
    if (start === m.index! || (start > 0 && NOT_BEFORE_USER.test(text[start - 1]))) continue;
    add('a user name and password (user:password@host)', start, m.index! + m[0].length - 1);
  }
  for (const m of has('=') && (has('?') || has('&')) ? text.matchAll(QUERY_PARAM) : []) {
    if (m[2] !== '' && !m[2].startsWith(SECRET_MASK) && SECRET_QUERY_KEYS.test(m[1])) {
      const start = m.index! + m[0].length - m[2].length;
      add(`a credential in a query parameter (${m[1]})`, start, start + m[2].length);
    }
  }
  for (const [kind, needles, pattern] of TOKEN_PATTERNS) {
    if (!needles.some(n => text.includes(n))) continue;
    for (const m of text.matchAll(pattern)) add(kind, m.index!, m.index! + m[0].length);
  }
  for (const m of has('PRIVATE KEY') ? text.matchAll(PEM_PRIVATE_KEY) : []) add('a private key (PEM)', m.index!, m.index! + m[0].length);
  for (const m of has('LS0tLS1CRUdJTi') ? text.matchAll(BASE64_PEM) : []) {
    const decoded = Buffer.from(m[0].replace(/\\n|\s/g, ''), 'base64').toString('latin1');
    if (/PRIVATE KEY/.test(decoded)) add('a private key (base64 PEM)', m.index!, m.index! + m[0].length);
  }
  for (const m of has('Bearer') || has('Basic') ? text.matchAll(AUTH_SCHEME) : []) {
    const start = m.index! + m[0].length - m[2].length;
    add(`a ${m[1]} credential`, start, start + m[2].length);
  }
  const lower = text.toLowerCase();
  for (const m of ASSIGNMENT_WORDS.some(w => lower.includes(w)) ? text.matchAll(ASSIGNMENT) : []) {
    if (REFERENCE.test(m[2])) continue;
    const start = m.index! + m[0].length - m[2].length;
    add(`a value assigned to ${m[1].toLowerCase()}`, start, start + m[2].length);
  }
  return merge(spans);
}

/** Spans sorted by start, overlapping ones merged into the first (whose kind is kept). */
function merge(spans: SecretSpan[]): SecretSpan[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: SecretSpan[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && s.start < last.end) {
      if (s.end > last.end) out[out.length - 1] = { ...last, end: s.end };
    } else {
      out.push(s);
    }
  }
  return out;
}

/**
 * `text` with every credential `findSecrets` finds replaced by `***`.
 * @internal
 */
export function redactSecrets(text: string): string {
  const spans = findSecrets(text);
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (const s of spans) {
    out += text.slice(at, s.start) + SECRET_MASK;
    at = s.end;
  }
  return out + text.slice(at);
}

/**
 * What credential `text` holds, as a message says it (`holds a GitHub token`), or undefined.
 * @internal
 */
export function secretIn(text: string): string | undefined {
  const found = findSecrets(text);
  return found.length === 0 ? undefined : [...new Set(found.map(s => s.kind))].join(' and ');
}

/**
 * True when `url` carries a credential in its query (`?token=...`), which a repository URL never needs.
 * @internal
 */
export function hasSecretQuery(url: URL): boolean {
  return [...url.searchParams.entries()].some(([k, v]) => v !== '' && SECRET_QUERY_KEYS.test(k));
}
