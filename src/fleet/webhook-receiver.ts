import { enumMember, hint, prop } from '../util/code-hint';
import { describe, show } from '../util/errors';
import { goProblem } from '../util/go-parsers';
import { dns1123LabelProblem } from '../util/names';

/**
 * The kinds of webhook receiver Kargo v1.11.2 offers (`WebhookReceiverConfig` in
 * api/v1alpha1/project_config_types.go; one handler each in pkg/webhook/external/).
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
  /**
   * Any sender (e.g. Amazon ECR through an EventBridge API destination), with expressions that
   * read the pushed repository from the request (generic.go, generic_actions.go, list.go).
   */
  GENERIC = 'generic',
}

/**
 * What the repository URL a generic receiver reads from a request names. Kargo indexes each
 * Warehouse under its subscriptions' URLs, normalized by kind (pkg/indexer/indexer.go,
 * `WarehousesBySubscribedURLs`: `urls.NormalizeGit`, `NormalizeImage`, `NormalizeChart`), so
 * the receiver must normalize the pushed URL the same way to find them.
 */
export enum PushedRepositoryType {
  /** A Git repository (`normalizeGit`). */
  GIT = 'git',
  /** A container image repository (`normalizeImage`). */
  IMAGE = 'image',
  /** A Helm chart repository or OCI chart (`normalizeChart`). */
  CHART = 'chart',
}

/** The normalizer a generic receiver's expressions can call (generic.go, `newBaseEnv`). */
const NORMALIZERS: Record<PushedRepositoryType, string> = {
  [PushedRepositoryType.GIT]: 'normalizeGit',
  [PushedRepositoryType.IMAGE]: 'normalizeImage',
  [PushedRepositoryType.CHART]: 'normalizeChart',
};

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
  [WebhookReceiverKind.GENERIC]: 'secret',
};

/**
 * Options for a webhook receiver.
 */
export interface WebhookReceiverOptions {
  /** The receiver's name (a DNS-1123 label), unique among the receivers of its scope. */
  readonly name: string;
  /**
   * The Secret holding the shared secret (the key is `secretKey`: `secret`, `secret-token` or
   * `auth-header`); for the platform's receivers in Kargo's system resources namespace
   * (`kargo-system-resources`), for an app's own in its Kargo Project namespace. Its content is
   * never written: with `secretSource` the library writes the Secret without it, for that system
   * to fill in; without, the Secret is created outside the manifests.
   */
  readonly secretName: string;
  /**
   * Where the shared secret comes from, e.g. `ExternalSecret kargo-webhook-github (merge)` or
   * `vault:kv/kargo/webhooks/github`: the library then writes the Secret `secretName` (no data,
   * annotated `gitops-platform.io/credentials-source`) for that system to merge the key into, as
   * it does for repository credentials (`RepositoryCredentials.managedSecret`).
   * @default - the Secret is created outside the manifests; the fleet report lists it
   */
  readonly secretSource?: string;
  /**
   * Whether the receiver works: its Secret holds the key (Kargo reports the receiver's URL in
   * the config's `status.webhookReceivers`, and the config is `Ready`) and that URL is
   * registered upstream. Only then do the Warehouses it covers poll every
   * `discoveryFallbackInterval` instead of Kargo's 5 minutes: a receiver without its Secret
   * refreshes nothing (Kargo v1.11.2 pkg/webhook/external/receiver.go, `NewReceiver`, fails the
   * whole config), and discovery would silently drop to the fallback.
   * @default false - covered Warehouses keep polling every 5 minutes
   */
  readonly ready?: boolean;
  /**
   * The repositories whose pushes the host sends to this receiver, as URL prefixes
   * (`https://github.com/acme/`, `ghcr.io/acme/`): where the webhook is registered upstream.
   * A Warehouse is refreshed by push when every repository it subscribes to is covered.
   */
  readonly repoUrls: string[];
}

/**
 * Options for a generic webhook receiver: where in the request the pushed repository is.
 */
export interface GenericWebhookReceiverOptions extends WebhookReceiverOptions {
  /**
   * An expr-lang expression over the request that gives the pushed repository's URL, e.g.
   * `request.body.repository` or `'123456789012.dkr.ecr.us-east-1.amazonaws.com/' +
   * request.body.detail['repository-name']`. Kargo evaluates it with `request.body` (the JSON
   * body), `request.header(name)`, `request.headers(name)` and `request.params(name)` in scope
   * (pkg/webhook/external/generic.go, `newBaseEnv`), normalizes the result and refreshes every
   * Warehouse subscribed to that URL (list.go, `newListOptionsForIndexSelector`). Written without
   * the `${{ }}` delimiters: the library adds them.
   */
  readonly repoUrlExpression: string;
  /** What the URL names, so it is normalized the way Kargo indexed the subscriptions. */
  readonly repoType: PushedRepositoryType;
  /**
   * An expr-lang expression over the same request that must be true for the receiver to act,
   * e.g. `request.header('X-Event-Type') == 'push'` (generic_actions.go, `whenExpressionMet`).
   * @default - every request sent to the receiver's URL
   */
  readonly whenExpression?: string;
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
  /**
   * Any sender that has no receiver of its own: the request names the pushed repository through
   * `repoUrlExpression`, and Kargo refreshes the Warehouses subscribed to it.
   */
  public static generic(options: GenericWebhookReceiverOptions): WebhookReceiver {
    return new WebhookReceiver(WebhookReceiverKind.GENERIC, options, options);
  }

  /** The receiver's name. */
  public readonly name: string;
  /** The name of the Secret holding the shared secret. */
  public readonly secretName: string;
  /** The repository URL prefixes the receiver covers. */
  public readonly repoUrls: string[];
  /** Where the shared secret comes from, when the library writes the Secret. */
  public readonly secretSource?: string;
  /** Whether the receiver is declared working (see `WebhookReceiverOptions.ready`). */
  public readonly ready: boolean;
  /** @internal */
  public readonly _problems: string[];
  private readonly generic?: GenericWebhookReceiverOptions;

  private constructor(public readonly kind: WebhookReceiverKind, options: WebhookReceiverOptions, generic?: GenericWebhookReceiverOptions) {
    this.name = options.name;
    this.secretName = options.secretName;
    this.repoUrls = [...options.repoUrls ?? []];
    this.secretSource = options.secretSource;
    this.ready = options.ready ?? false;
    this.generic = generic;
    this._problems = [
      ...genericProblems(generic),
      ...[dns1123LabelProblem(`${this.name}`)].filter(p => p !== undefined).map(p => describe(prop('name'), this.name, p!, 'name the receiver like a Kubernetes object')),
      ...[dns1123LabelProblem(`${this.secretName}`)].filter(p => p !== undefined)
        .map(p => describe(prop('secretName'), this.secretName, p!, 'use the name of the Secret the platform team created')),
      ...this.repoUrls.length === 0 ? [describe(prop('repoUrls'), this.repoUrls, 'is empty', 'list the repository URL prefixes the webhook is registered for')] : [],
      ...options.secretSource !== undefined && `${options.secretSource}`.trim() === ''
        ? [describe(prop('secretSource'), options.secretSource, 'is empty', 'say where the shared secret comes from, e.g. "ExternalSecret kargo-webhook-github (merge)"')] : [],
      ...options.ready !== undefined && typeof options.ready !== 'boolean' ? [describe(prop('ready'), options.ready, 'must be true or false')] : [],
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
    const secretRef = { name: this.secretName };
    if (this.generic === undefined) return { name: this.name, [this.kind]: { secretRef } };
    // one Refresh of the Warehouses whose subscriptions Kargo indexed under the pushed URL: the
    // field selector a native receiver uses too (refresh.go, `refreshWarehouses`)
    const url = `\${{ ${NORMALIZERS[this.generic.repoType]}(${this.generic.repoUrlExpression.trim()}) }}`;
    const when = this.generic.whenExpression?.trim();
    return {
      name: this.name,
      generic: {
        secretRef,
        actions: [{
          action: 'Refresh',
          ...(when ? { whenExpression: when } : {}),
          targetSelectionCriteria: [{
            kind: 'Warehouse',
            indexSelector: { matchIndices: [{ key: 'subscribedURLs', operator: 'Equals', value: url }] },
          }],
        }],
      },
    };
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

/**
 * Go's verdict on an expression as Kargo v1.11.2 compiles it (the Go parsers run expr-lang
 * v1.17.8): the condition with `expr.Compile(expression)` and no option (generic_actions.go
 * `whenExpressionMet`), the URL inside the `${{ }}` the library writes, as `EvaluateTemplate`
 * compiles a selector value (list.go `evalAsString`).
 */
function compileProblem(name: string, expression: string): string | undefined {
  return name === 'whenExpression'
    ? goProblem('kargo-when', expression)
    : goProblem('kargo-template', `\${{ ${NORMALIZERS[PushedRepositoryType.GIT]}(${expression.trim()}) }}`, 'template');
}

/**
 * The library wraps the URL expression in `${{ }}` and Kargo compiles the condition as a plain
 * expression (generic_actions.go, `whenExpressionMet`): a delimiter inside either ends or breaks
 * the template.
 */
function genericProblems(generic: GenericWebhookReceiverOptions | undefined): string[] {
  if (generic === undefined) return [];
  const delimiters = /\$\{\{|\}\}|\$\{%|%\}/;
  const problems: string[] = [];
  const expression = (name: string, value: unknown, required: boolean) => {
    if (value === undefined && !required) return;
    if (typeof value !== 'string' || value.trim() === '') {
      problems.push(describe(prop(name), value, 'must be a non-empty expr-lang expression', 'read the value from the request, e.g. request.body.repository'));
    } else if (delimiters.test(value)) {
      problems.push(describe(prop(name), value, 'contains a template delimiter (${{, }}, ${%, %})', 'write the bare expression: the library adds ${{ }} where Kargo needs it'));
    } else {
      const error = compileProblem(name, value);
      if (error) {
        problems.push(describe(prop(name), value, `does not compile with expr-lang v1.17.8, Kargo's expression language (${error}), so every request to the receiver fails`,
          "fix the expression, e.g. request.header('X-Event-Type') == 'push'"));
      }
    }
  };
  expression('repoUrlExpression', generic.repoUrlExpression, true);
  expression('whenExpression', generic.whenExpression, false);
  if (!Object.values(PushedRepositoryType).includes(generic.repoType)) {
    problems.push(describe(prop('repoType'), generic.repoType, 'is not a PushedRepositoryType',
      hint`use ${enumMember('PushedRepositoryType', 'GIT')}, IMAGE or CHART`));
  }
  return problems;
}
