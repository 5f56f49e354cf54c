import { caDataProblem } from './cluster-ca';
import { certificateFilesExecConfig, credentialPathProblem, tokenFileExecConfig } from './file-credentials';
import { field, hint, idiom, prop } from '../util/code-hint';
import { describe } from '../util/errors';
import { secretMaterialMessages } from '../util/secret-material';

/** Base64-encoding a PEM string, as each language's standard library does it. */
const BASE64_ENCODE = idiom({
  typescript: "Buffer.from(pem).toString('base64')",
  python: 'base64.b64encode(pem.encode()).decode()',
  java: 'Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.UTF_8))',
  go: 'base64.StdEncoding.EncodeToString([]byte(pem))',
  dotnet: 'Convert.ToBase64String(Encoding.UTF8.GetBytes(pem))',
});

/**
 * Options for `ClusterAuth.eks()`.
 */
export interface EksAuthOptions {
  /**
   * The EKS cluster name, as AWS knows it: argocd-k8s-auth mints the token for this name, and
   * a token for another name is rejected. Often differs from the fleet's name for the cluster.
   */
  readonly clusterName: string;
  /**
   * An IAM role Argo CD assumes to reach the cluster (cross-account access).
   * @default - Argo CD's own IAM identity (IRSA or EKS Pod Identity)
   */
  readonly roleArn?: string;
}

/**
 * Options for `ClusterAuth.aks()`.
 */
export interface AksAuthOptions {
  /**
   * How argocd-k8s-auth logs in to Entra ID (`AAD_LOGIN_METHOD`).
   * @default 'workloadidentity'
   */
  readonly loginMethod?: string;
  /**
   * The Azure cloud (`AAD_ENVIRONMENT_NAME`).
   * @default - the public Azure cloud
   */
  readonly environment?: string;
}

/**
 * Options for `ClusterAuth.exec()`.
 */
export interface ExecAuthOptions {
  /** The command, which must exist in the Argo CD image. */
  readonly command: string;
  /**
   * Arguments for the command.
   * @default []
   */
  readonly args?: string[];
  /**
   * Environment variables for the command. Values are stored in the cluster Secret in clear
   * text, so they must not hold secret material: names that look like tokens, keys or
   * passwords are refused.
   * @default - none
   */
  readonly env?: Record<string, string>;
  /**
   * The client authentication API version the plugin speaks.
   * @default 'client.authentication.k8s.io/v1beta1'
   */
  readonly apiVersion?: string;
  /**
   * Shown when the command is missing.
   * @default - none
   */
  readonly installHint?: string;
}

/**
 * Options for `ClusterAuth.tokenFile()`.
 */
export interface TokenFileAuthOptions {
  /**
   * The absolute path of the file holding the bearer token, as mounted into the Argo CD
   * application controller and server (e.g. from a Secret your secret manager writes). The
   * token itself never appears in the output.
   */
  readonly path: string;
}

/**
 * Options for `ClusterAuth.clientCertificateFiles()`.
 */
export interface ClientCertificateFilesOptions {
  /** The absolute path of the client certificate (PEM), as mounted into the Argo CD application controller and server. */
  readonly certFile: string;
  /** The absolute path of the client key (PEM), as mounted into the Argo CD application controller and server. */
  readonly keyFile: string;
}

/**
 * Options for any cluster authentication.
 */
export interface ClusterTlsOptions {
  /**
   * The cluster's CA certificate (base64-encoded PEM). Public material, not a secret. Required
   * for EKS, GKE, AKS and OKE clusters the central Argo CD reaches: their API servers present
   * certificates signed by each cluster's own CA, which no system trust store holds.
   * @default - the system trust store
   */
  readonly caData?: string;
  /**
   * The server name to verify the API server's certificate against.
   * @default - the host of the server URL
   */
  readonly serverName?: string;
}

const EXEC_API_VERSION = 'client.authentication.k8s.io/v1beta1';
const SECRET_LOOKING_ENV = /(TOKEN|SECRET|PASSWORD|PASSWD|PRIVATE|CREDENTIAL|_KEY$|^KEY$)/i;

/**
 * How Argo CD authenticates to a cluster, without secret material: it uses cloud identities
 * (IAM, workload identity), an exec plugin, or a token or client certificate in files mounted
 * into Argo CD's pods, never a bearer token, password or client key in the cluster Secret.
 *
 * The result is the `config` JSON of the Argo CD cluster Secret.
 *
 * @example
 * fleet.addCluster({ name: 'aws-use1-prod-1', server: 'https://ABC.gr7.us-east-1.eks.amazonaws.com', provider: CloudProvider.AWS,
 *   region: 'us-east-1', tier: Tier.PROD,
 *   auth: ClusterAuth.eks({ clusterName: 'prod-use1-1', roleArn: 'arn:aws:iam::123456789012:role/argocd' }, { caData: 'LS0tLS1CRUdJTi...' }) });
 */
export class ClusterAuth {
  /**
   * EKS with IAM: Argo CD's own role, or a role it assumes (`awsAuthConfig`).
   */
  public static eks(options: EksAuthOptions, tls: ClusterTlsOptions = {}): ClusterAuth {
    const problems = secretMaterialMessages(undefined, options);
    if (!options?.clusterName) {
      problems.push(describe(field('eks', prop('clusterName')), options?.clusterName, 'is required',
        "give the cluster's name as AWS knows it (aws eks list-clusters), which Argo CD mints its token for"));
    }
    if (options?.roleArn !== undefined && !/^arn:aws[a-z-]*:iam::\d{12}:role\/[\w+=,.@\/-]+$/.test(options.roleArn)) {
      problems.push(describe(field('eks', prop('roleArn')), options.roleArn, 'must be an IAM role ARN (arn:aws:iam::<account>:role/<name>)'));
    }
    // never the Argo CD name: a token minted for a name that is not the EKS cluster's is rejected
    return new ClusterAuth('eks', () => ({
      awsAuthConfig: { clusterName: options?.clusterName, roleARN: options?.roleArn },
    }), tls, problems);
  }

  /**
   * GKE with Workload Identity through the `argocd-k8s-auth gcp` exec plugin.
   */
  public static gke(tls: ClusterTlsOptions = {}): ClusterAuth {
    return new ClusterAuth('gke', () => ({
      execProviderConfig: { command: 'argocd-k8s-auth', args: ['gcp'], apiVersion: EXEC_API_VERSION },
    }), tls, []);
  }

  /**
   * AKS with Azure Workload Identity through the `argocd-k8s-auth azure` exec plugin.
   */
  public static aks(options: AksAuthOptions = {}, tls: ClusterTlsOptions = {}): ClusterAuth {
    const problems = secretMaterialMessages(undefined, options);
    const env: Record<string, string> = { AAD_LOGIN_METHOD: options.loginMethod ?? 'workloadidentity' };
    if (options.environment) env.AAD_ENVIRONMENT_NAME = options.environment;
    return new ClusterAuth('aks', () => ({
      execProviderConfig: { command: 'argocd-k8s-auth', args: ['azure'], env, apiVersion: EXEC_API_VERSION },
    }), tls, problems);
  }

  /**
   * Any exec credential plugin present in the Argo CD image.
   */
  public static exec(options: ExecAuthOptions, tls: ClusterTlsOptions = {}): ClusterAuth {
    // the options are written into the cluster Secret as given: a credential in an argument or an
    // environment value would be committed with the manifests (a secret-looking env name is
    // reported below, with its own fix)
    const env = Object.fromEntries(Object.entries(options.env ?? {}).filter(([name]) => !SECRET_LOOKING_ENV.test(name)));
    const problems = secretMaterialMessages(undefined, { ...options, env });
    if (!options.command) problems.push(describe(field('exec auth', prop('command')), options.command, 'must not be empty', 'name a plugin present in the Argo CD image'));
    for (const name of Object.keys(options.env ?? {})) {
      if (SECRET_LOOKING_ENV.test(name)) {
        problems.push(describe(field('exec auth', prop('env'), 'name'), name, 'looks like secret material and has a literal value', 'let the plugin read the secret from a mounted file or the workload identity instead'));
      }
    }
    return new ClusterAuth('exec', () => ({
      execProviderConfig: {
        command: options.command,
        args: options.args && options.args.length > 0 ? [...options.args] : undefined,
        env: options.env && Object.keys(options.env).length > 0 ? { ...options.env } : undefined,
        apiVersion: options.apiVersion ?? EXEC_API_VERSION,
        installHint: options.installHint,
      },
    }), tls, problems);
  }

  /**
   * A bearer token (e.g. a ServiceAccount token) read from a file mounted into Argo CD's pods,
   * for API servers without a cloud identity (on-premises, kubeadm, vcluster). The cluster Secret
   * holds the file's path only: an exec credential plugin (`sh -c`) prints the file's token for
   * client-go, which reads it again when the API server answers 401, so a rotated token is
   * picked up.
   */
  public static tokenFile(options: TokenFileAuthOptions, tls: ClusterTlsOptions = {}): ClusterAuth {
    const problem = credentialPathProblem('tokenFile', 'path', options?.path);
    return new ClusterAuth('token-file', () => ({ execProviderConfig: tokenFileExecConfig(options?.path) }), tls, problem ? [problem] : []);
  }

  /**
   * A client certificate and key read from files mounted into Argo CD's pods (see `tokenFile`):
   * the cluster Secret holds the two paths only.
   */
  public static clientCertificateFiles(options: ClientCertificateFilesOptions, tls: ClusterTlsOptions = {}): ClusterAuth {
    const problems = [
      credentialPathProblem('clientCertificateFiles', 'certFile', options?.certFile),
      credentialPathProblem('clientCertificateFiles', 'keyFile', options?.keyFile),
    ].filter((p): p is string => p !== undefined);
    return new ClusterAuth('client-certificate-files',
      () => ({ execProviderConfig: certificateFilesExecConfig(options?.certFile, options?.keyFile) }), tls, problems);
  }

  private constructor(
    /** Which kind of authentication: eks, gke, aks, exec, token-file or client-certificate-files. */
    public readonly kind: string,
    private readonly render: (clusterName: string) => Record<string, unknown>,
    private readonly tls: ClusterTlsOptions,
    /** @internal */
    public readonly _problems: string[]) {
    const caDefect = tls.caData === undefined ? undefined : caDataProblem(tls.caData);
    if (caDefect) {
      _problems.push(describe(prop('caData'), tls.caData!.slice(0, 40), caDefect.problem, caDefect.rawPem ? hint`base64-encode the PEM, e.g. ${BASE64_ENCODE}` : undefined));
    }
  }

  /** The CA the cluster Secret carries, if any. @internal */
  public get _caData(): string | undefined {
    return this.tls.caData;
  }

  /**
   * The Argo CD cluster `config` object for a cluster of this name.
   */
  public toClusterConfig(clusterName: string): any {
    const tlsClientConfig = { insecure: false, caData: this.tls.caData, serverName: this.tls.serverName };
    return JSON.parse(JSON.stringify({ ...this.render(clusterName), tlsClientConfig }));
  }
}
