import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { demoAdminBanner, demoAdminPassword } from "./demo-admin";

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "oddwire-demo-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the demo admin's password", () => {
  test("is generated once per data directory, kept owner-only, and the same on every later start", () => {
    const dir = tempDir();
    const first = demoAdminPassword(dir);
    expect(first).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect(readFileSync(path.join(dir, "demo-admin-password"), "utf8").trim()).toBe(first);
    expect(statSync(path.join(dir, "demo-admin-password")).mode & 0o777).toBe(0o600);
    expect(demoAdminPassword(dir)).toBe(first);
  });

  test("differs between data directories: no two installations share it", () => {
    expect(demoAdminPassword(tempDir())).not.toBe(demoAdminPassword(tempDir()));
  });

  test("a truncated file (a crash while writing it) gets a new password", () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "demo-admin-password"), "abc\n");
    expect(demoAdminPassword(dir)).toMatch(/^[A-Za-z0-9_-]{20}$/);
  });

  test("a data directory that does not exist yet is created", () => {
    const dir = path.join(tempDir(), "nested", "data");
    expect(demoAdminPassword(dir)).toHaveLength(20);
  });
});

test("the banner names the e-mail and password in the advertised words", () => {
  const banner = demoAdminBanner({ email: "admin@oddwire.test", password: "s3cret-value" });
  expect(banner).toContain("Demo admin: admin@oddwire.test / password: s3cret-value");
  expect(banner.split("\n").filter((line) => line.startsWith("===="))).toHaveLength(2);
});
