import { field, prop } from '../util/code-hint';
import { describe } from '../util/errors';
import { urlDefect } from '../util/urls';

/**
 * How Argo CD authenticates to a repository it reads.
 */
export enum ArgoCdCredentialsKind {
  /** Argo CD's Azure workload identity: the repository Secret is complete and holds no secret. */
  AZURE_WORKLOAD_IDENTITY = 'azure-workload-identity',
  /** A GitHub App: ids in the Secret, the private key merged in by another system. */
  GITHUB_APP = 'github-app',
  /** A repository Secret shell whose credential fields another system merges in. */
  MANAGED_SECRET = 'managed-secret',
}

/**
 * Options for `ArgoCdCredentials.githubApp()`.
 */
export interface ArgoCdGitHubAppOptions {
  /** The GitHub App's id (`githubAppID`). */
  readonly appId: number;
  /** The id of the App's installation on the organization (`githubAppInstallationID`). */
  readonly installationId: number;
  /**
   * GitHub Enterprise's API URL (`githubAppEnterpriseBaseUrl`), e.g. `https://ghe.acme.com/api/v3`.
   * @default - github.com
   */
  readonly enterpriseBaseUrl?: string;
  /**
   * Where `githubAppPrivateKey` comes from, for people reading the output (e.g.
   * `ExternalSecret argocd-github-app (merge)`).
   */
  readonly source: string;
}

/**
 * Options for `ArgoCdCredentials.managedSecret()`.
 */
export interface ArgoCdManagedSecretOptions {
  /**
   * Where the credential fields (`username`/`password`, `sshPrivateKey`, ...) come from, e.g.
   * `vault:kv/argocd/releases`.
   */
  readonly source: string;
}

/**
 * How Argo CD reads a repository (the release repository an app's Applications sync from),
 * declared as an Argo CD repository Secret (`argocd.argoproj.io/secret-type: repository`) that
 * holds no secret material: Argo CD v3.5.1 reads credentials only from the Secret's own keys
 * (`util/db/repository_secrets.go`, `secretToRepository`), and the only form that needs none is
 * Azure workload identity. For every other form the Secret is written without its secret keys
 * and another system (an ExternalSecret with `creationPolicy: Merge`, Vault) fills them in.
 * The Secret is scoped to the app's AppProject (`project`), so apps sharing a repository do not
 * share one Secret (`getRepositorySecret` prefers the project's own).
 *
 * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/declarative-setup/#repositories
 *
 * @example
 * ArgoCdCredentials.githubApp({ appId: 123456, installationId: 7890123, source: 'ExternalSecret argocd-github-app (merge)' });
 */
export class ArgoCdCredentials {
  /** Argo CD's Azure workload identity (Azure DevOps repositories, ACR); nothing to fill in. */
  public static azureWorkloadIdentity(): ArgoCdCredentials {
    return new ArgoCdCredentials(ArgoCdCredentialsKind.AZURE_WORKLOAD_IDENTITY, undefined, { useAzureWorkloadIdentity: 'true' }, []);
  }

  /** A GitHub App whose private key another system merges into the Secret. */
  public static githubApp(options: ArgoCdGitHubAppOptions): ArgoCdCredentials {
    const problems = sourceProblems('githubApp', options?.source);
    for (const [name, value] of [['appId', options?.appId], ['installationId', options?.installationId]] as const) {
      if (!(Number.isInteger(value) && value > 0)) problems.push(describe(field(prop('githubApp'), prop(name)), value, 'must be a whole number above 0', 'copy it from the App\'s settings page'));
    }
    const base = options?.enterpriseBaseUrl;
    if (base !== undefined && urlDefect(`${base}`, { schemes: ['https:'] }) !== undefined) {
      problems.push(describe(field(prop('githubApp'), prop('enterpriseBaseUrl')), base, 'must be an https:// URL without credentials', 'use e.g. "https://ghe.acme.com/api/v3"'));
    }
    const fields: Record<string, string> = { githubAppID: `${options?.appId}`, githubAppInstallationID: `${options?.installationId}` };
    if (base !== undefined) fields.githubAppEnterpriseBaseUrl = `${base}`;
    return new ArgoCdCredentials(ArgoCdCredentialsKind.GITHUB_APP, options?.source, fields, problems);
  }

  /** A repository Secret shell whose credential fields another system merges in. */
  public static managedSecret(options: ArgoCdManagedSecretOptions): ArgoCdCredentials {
    return new ArgoCdCredentials(ArgoCdCredentialsKind.MANAGED_SECRET, options?.source, {}, sourceProblems('managedSecret', options?.source));
  }

  private constructor(
    /** How Argo CD authenticates. */
    public readonly kind: ArgoCdCredentialsKind,
    /** Where the secret fields come from, when another system fills them in. */
    public readonly source: string | undefined,
    /** The Secret's non-secret fields besides type, url and project. @internal */
    public readonly _fields: Record<string, string>,
    /** @internal */
    public readonly _problems: string[]) {}

  /**
   * What is wrong with using these credentials for `repoUrl`, if anything. A GitHub App
   * authenticates against GitHub's API only: Argo CD v3.5.1 exchanges the App's key for an
   * installation token at `https://api.github.com`, or at `githubAppEnterpriseBaseUrl`
   * (util/git/creds.go, `GitHubAppCreds.getAccessToken`), and sends that token to the repository's
   * host; any other host refuses it, and every sync fails to fetch.
   * @internal
   */
  public _repositoryProblem(repoUrl: string): string | undefined {
    if (this._fields.githubAppID === undefined) return undefined; // not a GitHub App
    const host = hostOf(repoUrl);
    if (host === undefined) return undefined;
    const base = this._fields.githubAppEnterpriseBaseUrl;
    if (base === undefined) {
      return host === 'github.com' || host === 'www.github.com' ? undefined
        : `is a GitHub App, which authenticates only to github.com (or to the GitHub Enterprise host of enterpriseBaseUrl), but the release repository is on ${host}`;
    }
    const enterprise = hostOf(base);
    return enterprise === undefined || enterprise === host || enterprise === `api.${host}` ? undefined
      : `is a GitHub App of the GitHub Enterprise at ${enterprise}, but the release repository is on ${host}`;
  }
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

function sourceProblems(factory: string, source: string | undefined): string[] {
  return `${source ?? ''}`.trim() === ''
    ? [describe(field(prop(factory), prop('source')), source, 'must say where the secret fields come from', 'e.g. "ExternalSecret argocd-releases (merge)"')]
    : [];
}
