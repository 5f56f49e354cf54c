import { field, prop } from '../util/code-hint';
import { describe } from '../util/errors';

/**
 * Credentials that live in files mounted into Argo CD's pods, handed to client-go by a shell
 * one-liner as an exec credential plugin. The cluster Secret then holds only the file's path.
 *
 * Argo CD v3.5.1's cluster `config` has no field that refers to a file or another Secret:
 * `bearerToken`, `tlsClientConfig.certData` and `keyData` hold the material itself
 * (`pkg/apis/application/v1alpha1/types.go`, `ClusterConfig`). Its `execProviderConfig` becomes
 * client-go's `ExecConfig` (`Cluster.RawRestConfig`, with `InteractiveMode: Never`), and client-go
 * reads `status.token`, or `status.clientCertificateData` and `status.clientKeyData`, from the
 * `ExecCredential` the command prints (`k8s.io/client-go/plugin/pkg/client/auth/exec`,
 * `Authenticator.refreshCredsLocked`); without an expiry it keeps it until the API server answers
 * 401, then runs the command again, so a rotated file is picked up. `sh`, `cat` and `awk` are in
 * Argo CD's image (Ubuntu base).
 */

/** The API version of the ExecCredential the scripts print. */
export const FILE_CREDENTIAL_API_VERSION = 'client.authentication.k8s.io/v1beta1';

/** `$0` of the scripts: what `ps` shows while one runs. */
const SCRIPT_NAME = 'argocd-cluster-credential';

/** Prints an ExecCredential with the token in the file `$1` (trailing newlines dropped). */
const TOKEN_SCRIPT = 't=$(cat "$1") || exit 1; '
  + `printf '{"apiVersion":"${FILE_CREDENTIAL_API_VERSION}","kind":"ExecCredential","status":{"token":"%s"}}' "$t"`;

/** Prints an ExecCredential with the PEM certificate in `$1` and key in `$2`, newlines escaped for JSON. */
const CERTIFICATE_SCRIPT = 'c=$(awk \'{printf "%s\\\\n", $0}\' "$1") && k=$(awk \'{printf "%s\\\\n", $0}\' "$2") || exit 1; '
  + `printf '{"apiVersion":"${FILE_CREDENTIAL_API_VERSION}","kind":"ExecCredential","status":{"clientCertificateData":"%s","clientKeyData":"%s"}}' "$c" "$k"`;

/** The `execProviderConfig` of a token file. @internal */
export function tokenFileExecConfig(path: string): Record<string, unknown> {
  return execConfig(TOKEN_SCRIPT, [path], `mount the token file at ${path} into argocd-application-controller and argocd-server`);
}

/** The `execProviderConfig` of a client certificate and key file. @internal */
export function certificateFilesExecConfig(certFile: string, keyFile: string): Record<string, unknown> {
  return execConfig(CERTIFICATE_SCRIPT, [certFile, keyFile], `mount ${certFile} and ${keyFile} into argocd-application-controller and argocd-server`);
}

function execConfig(script: string, files: string[], installHint: string): Record<string, unknown> {
  return { command: 'sh', args: ['-c', script, SCRIPT_NAME, ...files], apiVersion: FILE_CREDENTIAL_API_VERSION, installHint };
}

/**
 * What is wrong with a credential file path, as a message, or undefined. The path is an argument
 * of the script, never part of it, so any absolute path is safe to pass.
 * @internal
 */
export function credentialPathProblem(method: string, name: string, path: string | undefined): string | undefined {
  if (!path) return describe(field(method, prop(name)), path, 'is required', 'give the absolute path at which the file is mounted into the argo cd pods');
  if (!path.startsWith('/')) return describe(field(method, prop(name)), path, 'must be an absolute path', 'give the path at which the file is mounted into the argo cd pods, e.g. /var/run/argocd/clusters/<cluster>/token');
  if (/[\0\n]/.test(path)) return describe(field(method, prop(name)), path, 'must not contain a newline or NUL');
  return undefined;
}
