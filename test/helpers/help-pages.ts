// The Obsidian help pages of the shared evaluation data, for tests on real text (skipped where the
// data is not there).
import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

/** The help pages' folder (`../shared/data/obsidian-help` beside the repository). */
export const HELP_PAGES = resolve(
  import.meta.dirname,
  "..",
  "..",
  "..",
  "shared",
  "data",
  "obsidian-help",
);

/** The Markdown files under `dir`, in a stable order (names sorted, folder by folder). */
export function markdownFilesUnder(dir: string): string[] {
  const files: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith(".md")) files.push(p);
    }
  };
  walk(dir);
  return files;
}
