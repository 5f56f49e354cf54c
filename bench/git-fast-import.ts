/**
 * Writes a commit graph into a git repository with one `git fast-import`: the release
 * repositories the `status` tests and bench read, made by the test kit's promotion model (tests)
 * or by the generator (bench), with the files and messages the promotion steps write.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';

/** One commit: its complete tree (path → content), message, parents (earlier commits' keys) and time. */
export interface ImportCommit {
  readonly key: string;
  readonly parents: string[];
  readonly files: Record<string, string>;
  readonly message: string;
  /** Committer time, seconds since the epoch. */
  readonly time: number;
}

const IMPORT_REF = 'refs/heads/__fast_import__';

/**
 * Appends the commits (parents before children) and points `branches` (name → commit key) at
 * them, in the repository at `gitDir` (created with `git init --bare` if it does not exist).
 */
export function fastImport(gitDir: string, commits: Iterable<ImportCommit>, branches: Map<string, string>): Map<string, string> {
  spawnSync('git', ['init', '--quiet', '--bare', gitDir]);
  const marks = new Map<string, number>();
  const chunks: string[] = [];
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  for (const c of commits) {
    const mark = marks.size + 1;
    marks.set(c.key, mark);
    // a reset without `from` starts the ref from nothing: a root commit stays a root
    chunks.push(`reset ${IMPORT_REF}\n`, `commit ${IMPORT_REF}\nmark :${mark}\n`,
      `committer Kargo <no-reply@kargo.example> ${c.time} +0000\n`, data(c.message.endsWith('\n') ? c.message : `${c.message}\n`));
    c.parents.forEach((p, i) => {
      const m = marks.get(p);
      if (m === undefined) throw new Error(`commit ${c.key}: parent ${p} is not written before it`);
      chunks.push(`${i === 0 ? 'from' : 'merge'} :${m}\n`);
    });
    chunks.push('deleteall\n');
    for (const file of Object.keys(c.files).sort()) chunks.push(`M 100644 inline ${file}\n`, data(c.files[file]));
    chunks.push('\n');
  }
  for (const [branch, key] of branches) chunks.push(`reset refs/heads/${branch}\nfrom :${marks.get(key)}\n\n`);
  const stream = chunks.join('');
  const marksFile = `${gitDir}/fast-import.marks`;
  const result = spawnSync('git', ['-C', gitDir, 'fast-import', '--quiet', `--export-marks=${marksFile}`, '--force'], { input: stream, maxBuffer: 2 ** 30 });
  if (result.status !== 0) throw new Error(`git fast-import failed: ${String(result.stderr)}`);
  spawnSync('git', ['-C', gitDir, 'update-ref', '-d', IMPORT_REF]);
  const ids = new Map<string, string>();
  const byMark = new Map([...marks].map(([key, mark]) => [mark, key]));
  for (const line of fs.readFileSync(marksFile, 'utf8').split('\n')) {
    const [mark, id] = line.split(' ');
    if (mark && id) ids.set(byMark.get(Number(mark.slice(1)))!, id);
  }
  fs.rmSync(marksFile, { force: true });
  return ids;
}
