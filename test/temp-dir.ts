import { chmodSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * A new directory under the system's temp dir, for a DATA_DIR. mkdtemp makes it owner-only; it is
 * opened to others' traversal (0755) because, as root, the embedded database runs as a user of its
 * own that must reach its cluster inside (else the cluster is kept outside, in /var/lib/oddwire).
 */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  chmodSync(dir, 0o755);
  return dir;
}
