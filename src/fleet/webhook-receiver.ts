import { describe, show } from '../util/errors';
import { dns1123LabelProblem } from '../util/names';

/**
 * The kinds of webhook receiver Kargo v1.11.2 offers (`WebhookReceiverConfig` in
 * api/v1alpha1/project_config_types.go; one handler each in pkg/webhook/external/). The generic
 * receiver, which needs expression-based actions, is not offered here.
 */
export enum WebhookReceiverKind {
  /** GitHub pushes and GHCR package events (pkg/webhook/external/github.go). */
  GITHUB = 'github',
  /** GitLab push and tag events (gitlab.go). */
  GITLAB = 'gitlab',
  /** Bitbucket pushes (bitbucket.go). */
  BITBUCKET = 'bitbucket',
  /** Gitea pushes (gitea.go). */
  GITEA = 'gitea',
  /** Docker Hub image pushes (dockerhub.go). */
  DOCKERHUB = 'dockerhub',
  /** Quay image pushes (quay.go). */
  QUAY = 'quay',
  /** Harbor image and chart pushes (harbor.go). */
  HARBOR = 'harbor',
  /** JFrog Artifactory image and chart pushes (artifactory.go). */
  ARTIFACTORY = 'artifactory',
  /** Azure Container Registry and Azure DevOps pushes (azure.go). */
  AZURE = 'azure',
}

/**
 * The key each receiver reads from its Secret (the `*SecretDataKey` constants of
 * pkg/webhook/external/<kind>.go): a shared secret the host signs with, or (Docker Hub, Quay,
 * Azure) only a value Kargo hashes into the receiver's hard-to-guess URL.
 */
const SECRET_KEYS: Record<WebhookReceiverKind, string> = {
  [WebhookReceiverKind.GITHUB]: 'secret',
  [WebhookReceiverKind.GITLAB]: 'secret-token',
  [WebhookReceiverKind.BITBUCKET]: 'secret',
  [WebhookReceiverKind.GITEA]: 'secret',
  [WebhookReceiverKind.DOCKERHUB]: 'secret',
  [WebhookReceiverKind.QUAY]: 'secret',
  [WebhookReceiverKind.HARBOR]: 'auth-header',
  [WebhookReceiverKind.ARTIFACTORY]: 'secret-token',
  [WebhookReceiverKind.AZURE]: 'secret',
};

/**
 * Options for a webhook receiver.
 */
export interface WebhookReceiverOptions {
  /** The receiver's name (a DNS-1123 label), unique among the receivers of its scope. */
  readonly name: string;
  /**
   * The Secret the platform team provides, holding the shared secret; for the platform's
   * receivers in Kargo's system resources namespace (`kargo-system-resources`), for an app's
   * own in its Kargo Project namespace. Only its name is written, never its content.
   */
  readonly secretName: string;
  /**
   * The repositories whose pushes the host sends to this receiver, as URL prefixes
   * (`https://github.com/acme/`, `ghcr.io/acme/`): where the webhook is registered upstream.
   * A Warehouse is refreshed by push when every repository it subscribes to is covered.
   */
  readonly repoUrls: string[];
}

/**
 * A Kargo webhook receiver: a Git host or registry announces pushes to it, and Kargo refreshes
 * every Warehouse subscribed to the pushed repository (pkg/webhook/external/refresh.go,
 * `refreshWarehouses`, which finds them through the index of subscribed, normalized repository
 * URLs: pkg/indexer/indexer.go, `WarehousesBySubscribedURLs`). Declare the platform's once on the
 * fleet (`ClusterFleetProps.webhookReceivers`, a Kargo `ClusterConfig`), and an app's own with
 * `PlatformAppProps.webhookReceivers` (its `ProjectConfig`).
 *
 * @example
 * WebhookReceiver.github({ name: 'github-acme', secretName: 'kargo-webhook-github', repoUrls: ['https://github.com/acme/', 'ghcr.io/acme/'] });
 */
export class WebhookReceiver {
  /** GitHub: pushes to repositories and GHCR packages. */
  public static github(options: WebhookReceiverOptions): WebhookReceiver {
    return new WebhookReceiver(WebhookReceiverKind.GITHUB, options);
  }
  /** GitLab: pushes to repositories and the container registry. */
  public static gitlab(options: WebhookReceiverOptions): WebhookReceiver {
    return new WebhookReceiver(WebhookReceiverKind.GITLAB, options);
  }
  /** Bitbucket: pushes to repositories. */
  public static bitbucket(options: WebhookReceiverOptions): WebhookReceiver {
    return new WebhookReceiver(WebhookReceiverKind.BITBUCKET, options);
  }
  /** Gitea: pushes to repositories. */
  public static gitea(options: WebhookReceiverOptions): WebhookReceiver {
    return new WebhookReceiver(WebhookReceiverKind.GITEA, options);
  }
  /** Docker Hub: image pushes. */
  public static dockerHub(options: WebhookReceiverOptions): WebhookReceiver {
    return new WebhookReceiver(WebhookReceiverKind.DOCKERHUB, options);
  }
  /** Quay: image pushes. */
  public static quay(options: WebhookReceiverOptions): WebhookReceiver {
    return new WebhookReceiver(WebhookReceiverKind.QUAY, options);
  }
  /** Harbor: image and chart pushes. */
  public static harbor(options: WebhookReceiverOptions): WebhookReceiver {
    return new WebhookReceiver(WebhookReceiverKind.HARBOR, options);
  }
  /** JFrog Artifactory: image and chart pushes. */
  public static artifactory(options: WebhookReceiverOptions): WebhookReceiver {
    return new WebhookReceiver(WebhookReceiverKind.ARTIFACTORY, options);
  }
  /** Azure Container Registry and Azure DevOps: pushes. */
  public static azure(options: WebhookReceiverOptions): WebhookReceiver {
    return new WebhookReceiver(WebhookReceiverKind.AZURE, options);
  }

  /** The receiver's name. */
  public readonly name: string;
  /** The name of the Secret holding the shared secret. */
  public readonly secretName: string;
  /** The repository URL prefixes the receiver covers. */
  public readonly repoUrls: string[];
  /** @internal */
  public readonly _problems: string[];

  private constructor(public readonly kind: WebhookReceiverKind, options: WebhookReceiverOptions) {
    this.name = options.name;
    this.secretName = options.secretName;
    this.repoUrls = [...options.repoUrls ?? []];
    this._problems = [
      ...[dns1123LabelProblem(`${this.name}`)].filter(p => p !== undefined).map(p => describe('name', this.name, p!, 'name the receiver like a Kubernetes object')),
      ...[dns1123LabelProblem(`${this.secretName}`)].filter(p => p !== undefined)
        .map(p => describe('secretName', this.secretName, p!, 'use the name of the Secret the platform team created')),
      ...this.repoUrls.length === 0 ? [describe('repoUrls', this.repoUrls, 'is empty', 'list the repository URL prefixes the webhook is registered for')] : [],
    ];
  }

  /** The key the Secret must hold (`secret`, `secret-token` or `auth-header`). */
  public get secretKey(): string {
    return SECRET_KEYS[this.kind];
  }

  /** Whether the receiver covers a subscribed repository URL. */
  public covers(repoUrl: string): boolean {
    const url = comparableUrl(repoUrl);
    return this.repoUrls.some(prefix => {
      const p = comparableUrl(prefix);
      return url === p || url.startsWith(p.endsWith('/') ? p : `${p}/`);
    });
  }

  /** The receiver as Kargo's `WebhookReceiverConfig`: its name and a reference to the Secret. @internal */
  public _toKargo(): any {
    return { name: this.name, [this.kind]: { secretRef: { name: this.secretName } } };
  }

  /** The receiver's kind and name, for messages. */
  public toString(): string {
    return `${this.kind} receiver ${show(this.name)}`;
  }
}

/**
 * A repository URL as Kargo compares them, near enough for deciding coverage: without scheme,
 * credentials-free, lowercase, without `.git` and trailing slashes (pkg/urls: `NormalizeGit`,
 * `NormalizeImage`, `NormalizeChart` do the same and more).
 */
function comparableUrl(url: string): string {
  return `${url}`.trim().toLowerCase().replace(/^[a-z][a-z0-9+.-]*:\/\//, '').replace(/\/+$/, '').replace(/\.git$/, '');
}
