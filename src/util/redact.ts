// Credentials must never reach an error message: messages end up in CI logs and chat. Every
// message the library throws passes through `redactSecrets`, whatever assembled it.

/** What messages show in place of a credential. @internal */
export const SECRET_MASK = '***';

/** Query parameters that carry credentials (pre-signed URLs, GitLab/GitHub tokens, API keys). */
const SECRET_QUERY_KEYS = /^(token|access_token|private_token|auth|auth_token|api_key|apikey|key|password|passwd|pwd|secret|client_secret|sig|signature|x-amz-signature|x-amz-credential|x-amz-security-token|x-goog-signature|x-goog-credential|sv|se)$/i;

/** Tokens recognisable by their prefix: GitHub, GitLab, AWS access keys, Slack, JWTs. */
const TOKEN_PATTERNS: RegExp[] = [
  /\bgh[pousr]_[A-Za-z0-9]{20,}\b/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}\b/g,
  /\bglpat-[A-Za-z0-9_-]{16,}\b/g,
  /\b(AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/g,
  /\beyJ[\w-]{5,}\.[\w-]{5,}\.[\w-]*/g,
];

/** `scheme://user:pass@host` (or `scheme://token@host`): the userinfo part. */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"']+@/gi;

/** `?token=...` / `&sig=...`: the value of a credential query parameter. */
const QUERY_PARAM = /([?&])([^=&\s"'#]+)=([^&\s"'#]*)/g;

/**
 * `text` with every credential it holds replaced by `***`: URL userinfo, credential query
 * parameters and recognisable tokens.
 * @internal
 */
export function redactSecrets(text: string): string {
  let out = text.replace(URL_USERINFO, `$1${SECRET_MASK}@`);
  out = out.replace(QUERY_PARAM, (all, sep: string, key: string, value: string) =>
    SECRET_QUERY_KEYS.test(key) && value !== '' ? `${sep}${key}=${SECRET_MASK}` : all);
  for (const p of TOKEN_PATTERNS) out = out.replace(p, SECRET_MASK);
  return out;
}

/**
 * True when `url` carries a credential in its query (`?token=...`), which a repository URL never needs.
 * @internal
 */
export function hasSecretQuery(url: URL): boolean {
  return [...url.searchParams.entries()].some(([k, v]) => v !== '' && SECRET_QUERY_KEYS.test(k));
}
