import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import { childrenOf } from "~/test/web-processes";

type BundleModule = { BUNDLE_DIR: string; ensureServerBundle(): Promise<number>; bundledEntry(name: string): string };
const { BUNDLE_DIR, bundledEntry, ensureServerBundle } = (await import("./bundle.mjs" as string)) as BundleModule;
const MANIFEST = path.join(BUNDLE_DIR, "inputs.json");
type Manifest = { startedAt: number; inputs: string[]; chunks: string[]; previousChunks: string[] };
const manifest = () => JSON.parse(readFileSync(MANIFEST, "utf8")) as Manifest;

/** The processes `pid` started that still run esbuild. */
function esbuildChildrenOf(pid: number): number[] {
  return childrenOf(pid).filter((child) => {
    try {
      return readFileSync(`/proc/${child}/cmdline`, "utf8").includes("esbuild");
    } catch {
      // Gone between the two reads.
      return false;
    }
  });
}

// Follows the static imports of a bundled module through the chunks it names: what loads with it.
function staticImports(file: string, seen = new Set<string>()): string[] {
  if (seen.has(file)) return [];
  seen.add(file);
  const specifiers = [...readFileSync(file, "utf8").matchAll(/^import\s[^"']*["']([^"']+)["'];?$/gm)].map((match) => match[1] as string);
  return specifiers.flatMap((specifier) =>
    specifier.startsWith(".") ? staticImports(path.resolve(path.dirname(file), specifier), seen) : [specifier],
  );
}

describe("the server bundle that `serve` runs (decision 018)", () => {
  test("holds both entries and lists the sources it was made from", async () => {
    await ensureServerBundle();
    for (const name of ["cli", "web-process"]) expect(existsSync(bundledEntry(name))).toBe(true);
    const { inputs } = manifest();
    expect(inputs).toEqual(expect.arrayContaining(["server/cli/cli.ts", "server/processes/web-process.ts", "server/http/web.ts", "lib/project-root.ts", "tsconfig.json"]));
    expect(inputs.some((input) => input.includes("node_modules"))).toBe(false);
    // Packages are imported from node_modules, not copied in.
    expect(staticImports(bundledEntry("web-process"))).toContain("react-router");
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

  test("the CLI's entry loads nothing but Node's own modules before a command runs, and each command's code on demand", async () => {
    await ensureServerBundle();
    const loaded = staticImports(bundledEntry("cli"));
    expect(loaded.length).toBeGreaterThan(0);
    expect(loaded.filter((specifier) => !specifier.startsWith("node:"))).toEqual([]);
    // The commands' code is in chunks imported on demand.
    expect(readFileSync(bundledEntry("cli"), "utf8")).toMatch(/import\("\.\/chunks\/cli-core-[A-Z0-9]+\.mjs"\)/);
  });

  test("the server's code loads libvips, the mailer and the terminal log format only when it needs them", async () => {
    await ensureServerBundle();
    const script = `
      import { createRequire } from "node:module";
      await import(${JSON.stringify(pathToFileURL(bundledEntry("web-process")).href)});
      const loaded = Object.keys(createRequire(import.meta.url).cache);
      console.log(JSON.stringify(["sharp", "nodemailer", "pino-pretty", "pg"].filter((name) => loaded.some((file) => file.includes("/node_modules/" + name + "/")))));
    `;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    // pg is loaded, so the check sees packages at all.
    expect(JSON.parse(run.stdout)).toEqual(["pg"]);
  }, 60_000);

  test("a command run from the bundle does its work", () => {
    const bin = path.join(import.meta.dirname, "..", "..", "bin", "oddwire.mjs");
    const run = spawnSync(process.execPath, [bin, "normalize-url", "HTTP://Example.COM/a/?utm_source=x&b=1"], { encoding: "utf8" });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ normalized: "http://example.com/a?b=1" });
    const help = spawnSync(process.execPath, [bin, "--help"], { encoding: "utf8" });
    expect(help.stdout).toMatch(/^Usage: oddwire <command>/);
  }, 60_000);

  test("a rebuild keeps the chunks of the build before, which a running process may still load, and drops older ones", async () => {
    await ensureServerBundle();
    const chunkDir = path.join(BUNDLE_DIR, "chunks");
    // A chunk of two builds ago, and one of the last build, by the manifest's account.
    writeFileSync(path.join(chunkDir, "old-AAAAAAAA.mjs"), "export {};\n");
    writeFileSync(path.join(chunkDir, "previous-BBBBBBBB.mjs"), "export {};\n");
    writeFileSync(MANIFEST, JSON.stringify({ ...manifest(), startedAt: 0, chunks: [...manifest().chunks, "previous-BBBBBBBB.mjs"] }));
    expect(await ensureServerBundle()).toBeGreaterThan(0);
    expect(existsSync(path.join(chunkDir, "previous-BBBBBBBB.mjs"))).toBe(true);
    expect(existsSync(path.join(chunkDir, "old-AAAAAAAA.mjs"))).toBe(false);
    for (const chunk of manifest().chunks) expect(existsSync(path.join(chunkDir, chunk))).toBe(true);
    expect(manifest().previousChunks).toContain("previous-BBBBBBBB.mjs");
    // One more build and the chunk that was only in the build before the last is gone too.
    writeFileSync(MANIFEST, JSON.stringify({ ...manifest(), startedAt: 0 }));
    expect(await ensureServerBundle()).toBeGreaterThan(0);
    expect(existsSync(path.join(chunkDir, "previous-BBBBBBBB.mjs"))).toBe(false);
  }, 60_000);

  test("is made again when a chunk it names is gone", async () => {
    await ensureServerBundle();
    rmSync(path.join(BUNDLE_DIR, "chunks", manifest().chunks[0] as string));
    expect(await ensureServerBundle()).toBeGreaterThan(0);
  }, 60_000);

  test("leaves no esbuild process running beside the server once it is made", async () => {
    writeFileSync(MANIFEST, JSON.stringify({ ...manifest(), startedAt: 0 }));
    // A process of its own makes the bundle, as `serve` does, says so and stays, as a server would,
    // until its stdin closes; the test lists the esbuild processes it started that still run.
    const script = `
      const { ensureServerBundle } = await import(${JSON.stringify(pathToFileURL(path.join(import.meta.dirname, "bundle.mjs")).href)});
      if ((await ensureServerBundle()) === 0) throw new Error("the bundle was not made");
      console.log("made");
      process.stdin.resume();
    `;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = once(child, "exit");
    try {
      await new Promise<void>((resolve, reject) => {
        let stdout = "";
        child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()).includes("made") && resolve());
        child.once("exit", (code) => reject(new Error(`the process ended (${code}) before the bundle was made: ${stderr}`)));
      });
      // One told to stop ends moments later.
      await expect.poll(() => esbuildChildrenOf(child.pid!), { timeout: 5_000, interval: 50 }).toEqual([]);
      expect(stderr).toBe("");
    } finally {
      child.stdin.end();
      await exited;
    }
  }, 60_000);
});
