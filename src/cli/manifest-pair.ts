import * as fs from 'fs';
import * as path from 'path';
import { compare, FLEET_GROUP, ManifestObject, ManifestSet } from './manifest-set';
import { PlatformLabels } from '../contracts/labels';
import { listYamlFiles } from '../testkit/yaml-files';

/** The two sides of a plan, loaded together. */
export interface ManifestPair {
  readonly base: ManifestSet;
  readonly head: ManifestSet;
  /** How many files were parsed: a path that differs counts once per side, an identical one once. */
  readonly parsed: number;
  /** How many YAML files the two sides hold, counted once per path. */
  readonly files: number;
}

const APP_LABEL = PlatformLabels.APP;
const SECRET_TYPE_LABEL = 'argocd.argoproj.io/secret-type';
// a collection at the top of some document: a block mapping key, a block sequence, a flow collection
const HOLDS_AN_OBJECT = /^(?:- |-$|[{[]|(?!#|%|---|\.\.\.)\S[^\n]*?:(?: |$))/m;

/**
 * Loads two synthesized directories for a diff, comparing bytes before parsing: at fleet size a
 * one-app change leaves all but a few of thousands of files byte-identical, and parsing YAML is
 * what costs (the `yaml` package parses ~2 MiB/s). A file that differs, or exists on one side
 * only, is parsed on its side(s). A file identical on both sides is parsed once (the two sides
 * share its objects) when its group is needed: when a parsed file holds objects of that group, or
 * it is the fleet. Its group is read from its name (see `ManifestSet.fileGroup`) when its text can hold no
 * other: no `gitops-platform.io/app` label with another value, no cluster Secret, some object;
 * any other identical file is parsed. So every group that has objects on either side has all of
 * them, and a group whose files are all identical and unneeded is known by name only: unaffected.
 * `baseDir` undefined: the base has no platform (everything is added).
 */
export function loadPair(baseDir: string | undefined, headDir: string): ManifestPair {
  const baseFiles = baseDir === undefined ? new Map<string, string>() : filesOf(baseDir);
  const headFiles = filesOf(headDir);
  const baseObjects: ManifestObject[] = [];
  const headObjects: ManifestObject[] = [];
  const identical: Array<{ rel: string; text: string; stem: string }> = [];
  let parsed = 0;
  const parse = (rel: string, text: string, into: ManifestObject[][]) => {
    parsed++;
    const objects = ManifestSet.parseFile(rel, text);
    for (const list of into) list.push(...objects);
    return objects;
  };
  for (const rel of [...new Set([...baseFiles.keys(), ...headFiles.keys()])].sort(compare)) {
    const before = baseFiles.has(rel) ? fs.readFileSync(baseFiles.get(rel)!) : undefined;
    const after = headFiles.has(rel) ? fs.readFileSync(headFiles.get(rel)!) : undefined;
    if (before && after && before.equals(after)) {
      const text = after.toString('utf8');
      const stem = namedGroup(rel, text);
      if (stem === undefined) parse(rel, text, [baseObjects, headObjects]);
      else identical.push({ rel, text, stem });
      continue;
    }
    if (before) parse(rel, before.toString('utf8'), [baseObjects]);
    if (after) parse(rel, after.toString('utf8'), [headObjects]);
  }
  const needed = new Set([FLEET_GROUP, ...baseObjects.map((o) => o.group), ...headObjects.map((o) => o.group)]);
  const unread = new Set<string>();
  for (const { rel, text, stem } of identical) {
    if (needed.has(stem)) parse(rel, text, [baseObjects, headObjects]);
    else unread.add(stem);
  }
  const files = new Set([...baseFiles.keys(), ...headFiles.keys()]).size;
  // the order ManifestSet.load gives: by file, then by document
  const byFile = (list: ManifestObject[]) => list.map((o, i) => ({ o, i }))
    .sort((x, y) => compare(x.o.file, y.o.file) || x.i - y.i).map(({ o }) => o);
  return { base: ManifestSet.of(byFile(baseObjects), unread), head: ManifestSet.of(byFile(headObjects), unread), parsed, files };
}

/** The YAML files below `dir` by path relative to it ('/'-separated). */
function filesOf(dir: string): Map<string, string> {
  return new Map(listYamlFiles(dir).map((file) => [path.relative(dir, file).split(path.sep).join('/'), file]));
}

/**
 * The group every object of a file belongs to, when its text shows it without parsing; else
 * undefined (parse it). Every line naming the app label must give it the file's own group, plain.
 */
function namedGroup(rel: string, text: string): string | undefined {
  const { stem } = ManifestSet.fileGroup(rel);
  if (stem === FLEET_GROUP || text.includes(SECRET_TYPE_LABEL) || !HOLDS_AN_OBJECT.test(text)) return undefined;
  let at = text.indexOf(APP_LABEL);
  while (at >= 0) {
    const lineStart = text.lastIndexOf('\n', at) + 1;
    const lineEnd = text.indexOf('\n', at);
    const line = text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd);
    if (line.trim() !== `${APP_LABEL}: ${stem}`) return undefined;
    at = text.indexOf(APP_LABEL, at + APP_LABEL.length);
  }
  return stem;
}
