/**
 * A problem found in one Kubernetes object.
 */
export interface ManifestIssue {
  /** The file the object came from, or `inline` for objects passed in directly. */
  readonly source: string;
  /** The object's apiVersion ('' when it has none or the document did not parse). */
  readonly apiVersion: string;
  /** The object's kind ('' when it has none or the document did not parse). */
  readonly kind: string;
  /** The object's metadata.name ('' when it has none). */
  readonly name: string;
  /**
   * The object's metadata.namespace.
   * @default - cluster-scoped or not set
   */
  readonly namespace?: string;
  /** JSON pointer to the offending field within the object ('' = the object itself). */
  readonly path: string;
  /** What is wrong, showing the offending value. */
  readonly message: string;
}

/**
 * Renders issues one per line: `<source> <kind>/<namespace>/<name> <path>: <message>`
 * (`<kind>/<name>` for objects without a namespace, `-` for a document that has neither kind nor
 * name, `/` as the path of the object itself).
 */
export function formatIssues(issues: ManifestIssue[]): string {
  return issues.map((issue) => {
    const identity = !issue.kind && !issue.name ? '-'
      : issue.namespace ? `${issue.kind}/${issue.namespace}/${issue.name}` : `${issue.kind}/${issue.name}`;
    return `${issue.source} ${identity} ${issue.path || '/'}: ${issue.message}`;
  }).join('\n');
}
