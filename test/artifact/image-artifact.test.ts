import { describe, expect, test } from 'vitest';
import { Artifact, Versioning } from '../../src';

describe('image artifact', () => {
  test('subscribes with the Kargo v1.11 field names and never writes removed ones', () => {
    const image = Artifact.image('ghcr.io/acme/api', { versioning: Versioning.semver('^2.0.0'), allowTags: ['^v'], platform: 'linux/amd64', discoveryLimit: 5 });
    const subscription = image._type.subscription();
    expect(subscription.image).toMatchObject({
      repoURL: 'ghcr.io/acme/api', constraint: '^2.0.0', allowTagsRegexes: ['^v'], platform: 'linux/amd64', discoveryLimit: 5,
    });
    expect(Object.keys(subscription.image)).not.toContain('allowTags');
    expect(Object.keys(subscription.image)).not.toContain('semverConstraint');
  });

  test('injects its tag into a Helm render, or its digest when it follows a tag by digest', () => {
    expect(Artifact.image('ghcr.io/acme/api', { helmValuesKey: 'api.image' })._type.helmTemplateValues!().map((v: any) => v.key))
      .toEqual(['api.image.repository', 'api.image.tag']);
    expect(Artifact.image('ghcr.io/acme/api', { versioning: Versioning.digest('latest') })._type.helmTemplateValues!().map((v: any) => v.key))
      .toEqual(['image.repository', 'image.digest']);
  });

  test('sets its tag or digest in a kustomization', () => {
    expect(Object.keys(Artifact.image('ghcr.io/acme/api')._type.kustomizeSetImage!())).toEqual(['image', 'tag']);
    expect(Object.keys(Artifact.image('ghcr.io/acme/api', { versioning: Versioning.digest('stable') })._type.kustomizeSetImage!())).toEqual(['image', 'digest']);
  });

  test('tells the standards its registry, and its mutable tag only when it follows one by digest', () => {
    expect(Artifact.image('nginx').registry).toBe('docker.io');
    expect(Artifact.image('registry.example.com:5000/team/app').registry).toBe('registry.example.com:5000');
    expect(Artifact.image('ghcr.io/acme/api')._type.mutableTag).toBeUndefined();
    expect(Artifact.image('ghcr.io/acme/api', { versioning: Versioning.digest('latest') })._type.mutableTag).toBe('latest');
  });

  test('fails if the reference carries a tag', () => {
    expect(Artifact.image('ghcr.io/acme/api:1.0')._problems).toEqual([
      'image reference must not have a tag, got "ghcr.io/acme/api:1.0"; name the repository only; the versioning rule picks the tag',
    ]);
  });
});
