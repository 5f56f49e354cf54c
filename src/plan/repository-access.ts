import { Artifact } from '../artifact/artifact';
import { normalizedRepoUrl } from '../artifact/artifact-type';
import { ManifestSource } from '../artifact/manifest-source';
import { CredentialsKind, RepositoryCredentials } from '../artifact/repository-credentials';
import { field, prop } from '../util/code-hint';
import { describe, show } from '../util/errors';

/**
 * One repository Kargo reads (or writes, for the release repository), with how it authenticates.
 * @internal
 */
export interface RepositoryAccess {
  readonly repoUrl: string;
  /** Kargo's credential type: `git`, `helm` or `image`. */
  readonly credType: string;
  readonly credentials: RepositoryCredentials;
}

/**
 * The repositories of an app that declare credentials, one per credential type and URL.
 * Returns problems when one repository is declared twice with different credentials.
 * @internal
 */
export function repositoryAccesses(artifacts: Artifact[], source: ManifestSource, releaseRepo: string,
  releaseCredentials: RepositoryCredentials | undefined): { accesses: RepositoryAccess[]; problems: string[] } {
  const candidates: RepositoryAccess[] = [];
  const add = (repoUrl: string, credType: string, credentials: RepositoryCredentials | undefined) => {
    if (credentials) candidates.push({ repoUrl, credType, credentials });
  };
  for (const a of artifacts) {
    add(a.repoUrl, a._type.credentialType, a.credentials);
  }
  add(source.repoUrl, 'git', source.credentials);
  add(releaseRepo, 'git', releaseCredentials);

  const byKey = new Map<string, RepositoryAccess>();
  const problems: string[] = [];
  for (const c of candidates) {
    // one repository spelled two ways (case, trailing slash, .git) is one repository to Kargo
    const key = `${c.credType} ${normalizedRepoUrl(c.repoUrl, c.credType === 'git')}`;
    const seen = byKey.get(key);
    if (seen && (seen.credentials.kind !== c.credentials.kind || seen.credentials.source !== c.credentials.source)) {
      problems.push(describe(field(`repository ${c.repoUrl}`, prop('credentials')), `${seen.credentials.kind} and ${c.credentials.kind}`, 'are given differently in two places',
        'declare one', String));
    }
    byKey.set(key, c);
  }
  const accesses = [...byKey.values()].sort((a, b) => `${a.credType} ${a.repoUrl}`.localeCompare(`${b.credType} ${b.repoUrl}`));
  const secretOwners = new Map<string, string>();
  for (const a of accesses.filter(x => x.credentials.kind === CredentialsKind.MANAGED_SECRET)) {
    const name = credentialSecretName(a);
    const other = secretOwners.get(name);
    if (other !== undefined) {
      problems.push(describe(`credentials Secret ${show(name)}`, `repositories ${other} and ${a.repoUrl}`,
        'would be shared by two repositories, as its name is made of the URL\'s letters and digits', 'use workload identity for one of them, or one repository',
        String));
    }
    secretOwners.set(name, a.repoUrl);
  }
  return { accesses, problems };
}

/** `creds-git-github-com-acme-releases`: stable, readable, a DNS subdomain. @internal */
export function credentialSecretName(access: RepositoryAccess): string {
  const slug = access.repoUrl.replace(/^[a-z]+:\/\//, '').replace(/\.git$/, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return `creds-${access.credType}-${slug}`.slice(0, 253).replace(/-+$/, '');
}
