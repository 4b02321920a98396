import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

type BundleModule = { BUNDLE_DIR: string; ensureServerBundle(): Promise<number>; bundledEntry(name: string): string };
const { BUNDLE_DIR, bundledEntry, ensureServerBundle } = (await import("./bundle.mjs" as string)) as BundleModule;
const MANIFEST = path.join(BUNDLE_DIR, "inputs.json");
type Manifest = { startedAt: number; inputs: string[] };
const manifest = () => JSON.parse(readFileSync(MANIFEST, "utf8")) as Manifest;

describe("the server bundle that `serve` runs (decision 018)", () => {
  test("holds both entries and lists the sources it was made from", async () => {
    await ensureServerBundle();
    for (const name of ["cli", "web-process"]) expect(existsSync(bundledEntry(name))).toBe(true);
    const { inputs } = manifest();
    expect(inputs).toEqual(expect.arrayContaining(["server/cli.ts", "server/web-process.ts", "server/web.ts", "lib/project-root.ts", "tsconfig.json"]));
    expect(inputs.some((input) => input.includes("node_modules"))).toBe(false);
    // Packages are imported from node_modules, not copied in.
    expect(readFileSync(bundledEntry("web-process"), "utf8")).toMatch(/from "react-router"/);
  });

  test("is kept while no source is newer, and made again when one is", async () => {
    await ensureServerBundle();
    expect(await ensureServerBundle()).toBe(0);

    writeFileSync(MANIFEST, JSON.stringify({ ...manifest(), startedAt: 0 }));
    const before = Date.now();
    expect(await ensureServerBundle()).toBeGreaterThan(0);
    expect(manifest().startedAt).toBeGreaterThanOrEqual(before);
    expect(await ensureServerBundle()).toBe(0);
  }, 60_000);

  test("is made again when a source it was made from is gone", async () => {
    await ensureServerBundle();
    writeFileSync(MANIFEST, JSON.stringify({ ...manifest(), inputs: [...manifest().inputs, "server/a-file-that-was-deleted.ts"] }));
    expect(await ensureServerBundle()).toBeGreaterThan(0);
    expect(manifest().inputs).not.toContain("server/a-file-that-was-deleted.ts");
  }, 60_000);

  test("leaves no esbuild process running beside the server once it is made", async () => {
    writeFileSync(MANIFEST, JSON.stringify({ ...manifest(), startedAt: 0 }));
    expect(await ensureServerBundle()).toBeGreaterThan(0);
    const children = readdirSync(`/proc/${process.pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${process.pid}/task/${task}/children`, "utf8").trim().split(/\s+/).filter(Boolean),
    );
    const commands = children.map((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
      } catch {
        return ""; // ended meanwhile
      }
    });
    expect(commands.filter((command) => command.includes("esbuild"))).toEqual([]);
  }, 60_000);
});
