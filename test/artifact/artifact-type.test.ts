import * as fs from 'fs';
import * as path from 'path';
import { describe, expect, test } from 'vitest';

// Each artifact and source kind owns its behaviour behind ArtifactType / SourceType: code outside
// src/artifact/ never names a kind or reads a kind's option bag, so a new kind is its own file
// plus its registration (its enum member, its factory, its export).

const SRC = path.join(__dirname, '..', '..', 'src');

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(e => e.isDirectory() ? files(path.join(dir, e.name))
    : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []);
}

function matches(pattern: RegExp, except: (rel: string) => boolean): string[] {
  return files(SRC).map(f => path.relative(SRC, f).split(path.sep).join('/')).filter(rel => !except(rel))
    .flatMap(rel => fs.readFileSync(path.join(SRC, rel), 'utf-8').split('\n').flatMap((line, i) => pattern.test(line) ? [`${rel}:${i + 1}: ${line.trim()}`] : []));
}

describe('artifact and source kinds', () => {
  test('no code outside src/artifact/ names an artifact or source kind', () => {
    expect(matches(/\b(ArtifactKind|ManifestSourceKind)\.[A-Z_]+|switch \([^)]*\bkind\)/, rel => rel.startsWith('artifact/') || rel.startsWith('testkit/'))).toEqual([]);
  });

  test('inside src/artifact/ only a kind\'s own file names it', () => {
    const own = ['image-artifact.ts', 'chart-artifact.ts', 'git-artifact.ts', 'helm-source.ts', 'kustomize-source.ts'];
    expect(matches(/\b(ArtifactKind|ManifestSourceKind)\.[A-Z_]+|\bkind (===|!==)/, rel => !rel.startsWith('artifact/') || own.some(f => rel === `artifact/${f}`))).toEqual([]);
  });
});
