import { randomBytes } from "node:crypto";
import { ownerOnlySecret } from "./owner-only-file";

/**
 * The demo admin's password for this data directory: generated once (mode 0600) and kept, so every
 * demo start advertises the same one and no two installations share it.
 */
export function demoAdminPassword(dataDir: string): string {
  // 15 bytes -> 20 base64url characters: easy to copy, far beyond guessing.
  return ownerOnlySecret(dataDir, "demo-admin-password", { minLength: 12, generate: () => randomBytes(15).toString("base64url") });
}

/** The banner a demo start prints once, outside the structured log, so the password never lands in log files. */
export function demoAdminBanner(admin: { email: string; password: string }): string {
  const line = `Demo admin: ${admin.email} / password: ${admin.password}`;
  const rule = "=".repeat(line.length + 4);
  return `\n${rule}\n  ${line}\n${rule}\n\n`;
}
