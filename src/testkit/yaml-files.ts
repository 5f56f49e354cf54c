import * as fs from 'fs';
import * as path from 'path';

/**
 * Every `.yaml`/`.yml` file below a directory, in plain code-unit order (locale-independent, hence
 * the same on every machine), so findings and diffs come out in the same order everywhere.
 */
export function listYamlFiles(dir: string): string[] {
  const files: string[] = [];
  const walk = (current: string): void => {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) {
        walk(full);
      } else if (entry.isFile() && /\.ya?ml$/.test(entry.name)) {
        files.push(full);
      }
    }
  };
  walk(dir);
  return files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
