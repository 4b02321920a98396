import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Absolute path of a file in the shared conformance corpora, read in place (never copied in). */
export function corpusPath(relative: string): string {
  const dir = process.env.ODDWIRE_CORPORA ?? path.resolve(root, "../shared/corpora");
  const full = path.join(dir, relative);
  if (!existsSync(full)) throw new Error(`Corpus file missing: ${full} (set ODDWIRE_CORPORA to the corpora folder)`);
  return full;
}
