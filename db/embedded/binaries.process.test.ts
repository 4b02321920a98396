import { execFileSync } from "node:child_process";
import { cpSync, lstatSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import { hydrateLibraryLinks, loadBinaries } from "./binaries";

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

test("this platform's binaries load, with their extensions", async () => {
  const binaries = await loadBinaries();
  expect(execFileSync(binaries.postgres, ["--version"], { encoding: "utf8" })).toContain("17.");
  for (const extension of ["pg_trgm", "unaccent", "fuzzystrmatch"]) {
    expect(lstatSync(path.join(binaries.nativeDir, "share", "postgresql", "extension", `${extension}.control`)).isFile()).toBe(true);
  }
});

test("a platform without a build is refused with a message that says to set DATABASE_URL", async () => {
  await expect(loadBinaries("sunos-sparc")).rejects.toMatchObject({
    code: "EMBEDDED_UNSUPPORTED_PLATFORM",
    message: expect.stringContaining("DATABASE_URL"),
  });
});

test("library links the package's install script did not make (npm holds install scripts back) are made, and the programs run", async () => {
  const binaries = await loadBinaries();
  const dir = mkdtempSync(path.join(os.tmpdir(), "oddwire-binaries-"));
  temps.push(dir);
  const native = path.join(dir, "package", "native");
  cpSync(binaries.nativeDir, native, { recursive: true, verbatimSymlinks: true });
  const links = JSON.parse(readFileSync(path.join(native, "pg-symlinks.json"), "utf8")) as { target: string }[];
  for (const { target } of links) rmSync(path.join(dir, "package", target));
  const postgres = path.join(native, "bin", "postgres");
  expect(() => execFileSync(postgres, ["--version"], { stdio: "pipe" })).toThrow(/libicu/);

  hydrateLibraryLinks(native);
  expect(execFileSync(postgres, ["--version"], { encoding: "utf8" })).toContain("17.");
  expect(lstatSync(path.join(native, "lib", "libpq.so.5")).isSymbolicLink()).toBe(true);
});
