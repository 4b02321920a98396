import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * A secret kept beside the data it belongs to: read from `dataDir/name` when it holds at least
 * `minLength` characters, else made by `generate` and written readable by its owner only (0600).
 * A missing or truncated file (a crash while creating it) gets a new one.
 */
export function ownerOnlySecret(dataDir: string, name: string, options: { minLength: number; generate: () => string }): string {
  const file = path.join(dataDir, name);
  if (existsSync(file)) {
    const existing = readFileSync(file, "utf8").trim();
    if (existing.length >= options.minLength) return existing;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = options.generate();
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  // writeFileSync's mode applies only to a new file; an old truncated one keeps its mode otherwise.
  chmodSync(file, 0o600);
  return secret;
}
