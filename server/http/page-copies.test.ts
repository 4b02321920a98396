import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { createPageCopies } from "./page-copies";
import { makeEntry, type Entry } from "./page-entry";
import { tempDir as newTempDir } from "~/test/temp-dir";

// The shared copies on a real directory. Two stores over one directory stand for two web processes.
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = newTempDir("oddwire-page-copies-");
  dirs.push(dir);
  return dir;
}

const TEN_MINUTES = 10 * 60_000;
const html = new Headers({ "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": "script-src 'nonce-abc'" });
/** A page of about `bytes` bytes saying `text`, kept as the cache keeps it (identity, br, gzip). */
const page = (text: string, at: number, bytes = 4_000): Promise<Entry> =>
  makeEntry(200, html, Buffer.from(`<main><p>${text}</p>${"<p>A goat was elected mayor of a small town.</p>".repeat(Math.ceil(bytes / 48))}</main>`), at);
/** Bytes that compress poorly, so that a copy's size is about `bytes`. */
const noise = (seed: number, bytes: number) => Buffer.from(Array.from({ length: bytes }, (_, i) => String.fromCharCode(33 + ((i * 7919 + seed * 104729) % 93))).join(""));
const sizeOf = (dir: string) => readdirSync(dir).reduce((sum, name) => sum + statSync(path.join(dir, name)).size, 0);

describe("the shared copies of public pages", () => {
  test("a copy kept by one web process is read by another, whole, with its headers, status and every encoding", async () => {
    const dir = tempDir();
    const one = createPageCopies({ dir, maxAgeMs: TEN_MINUTES, now: () => 1_000 });
    const other = createPageCopies({ dir, maxAgeMs: TEN_MINUTES, now: () => 2_000 });
    const kept = await page("the category page", 1_000);
    expect(Object.keys(kept.variants).sort()).toEqual(["br", "gzip", "identity"]);
    await one.keep("/category/animals", kept);
    const read = await other.read("/category/animals");
    expect(read).toEqual({ ...kept, variants: expect.any(Object) });
    for (const encoding of ["identity", "br", "gzip"] as const) {
      expect(read!.variants[encoding]!.body.equals(kept.variants[encoding]!.body)).toBe(true);
      expect(read!.variants[encoding]!.etag).toBe(kept.variants[encoding]!.etag);
    }
    expect(await other.read("/category/plants")).toBeUndefined();
    // Kept again, the copy is replaced, not added to.
    await one.keep("/category/animals", await page("the category page, changed", 1_500));
    expect((await other.read("/category/animals"))!.variants.identity.body.toString()).toContain("changed");
    expect(readdirSync(dir)).toHaveLength(1);
  });

  test("a copy is named by the hash of its key: no URL reaches the file system", async () => {
    const parent = tempDir();
    const dir = path.join(parent, "cache", "pages");
    const copies = createPageCopies({ dir, maxAgeMs: TEN_MINUTES, now: () => 0 });
    const keys = ["/../../../escaped", "/story/x?next=../../escaped", "/%2e%2e/%2e%2e/escaped", "/story/\u0000nul", `/${"long".repeat(500)}`];
    for (const key of keys) await copies.keep(key, await page(key, 0));
    expect(readdirSync(parent)).toEqual(["cache"]);
    expect(readdirSync(path.join(parent, "cache"))).toEqual(["pages"]);
    const names = readdirSync(dir);
    expect(names).toHaveLength(keys.length);
    for (const name of names) expect(name).toMatch(/^[0-9a-f]{64}\.page$/);
    for (const key of keys) expect((await copies.read(key))!.variants.identity.body.toString()).toContain(key);
  });

  test("a reader never gets part of a copy: each is written aside and renamed into place, and one that does not read back whole is no copy", async () => {
    const dir = tempDir();
    const writer = createPageCopies({ dir, maxAgeMs: TEN_MINUTES, now: () => 0 });
    const reader = createPageCopies({ dir, maxAgeMs: TEN_MINUTES, now: () => 0 });
    // Two versions of a 600 KB page, rewritten over and over while another process reads it.
    const versions = await Promise.all([0, 1].map(async (n) => makeEntry(200, html, noise(n, 600_000), 0)));
    const bodies = versions.map((v) => v.variants.identity.body);
    await writer.keep("/", versions[0]!);
    let writing = true;
    const writes = (async () => {
      for (let i = 0; i < 60; i++) await writer.keep("/", versions[i % 2]!);
      writing = false;
    })();
    let reads = 0;
    while (writing) {
      const read = await reader.read("/");
      expect(read).toBeDefined();
      expect(bodies.some((body) => body.equals(read!.variants.identity.body))).toBe(true);
      reads++;
    }
    await writes;
    expect(reads).toBeGreaterThan(5);
    // A copy cut short (a crash before the disk had it all) or overwritten with anything else is not served.
    const [file] = readdirSync(dir).map((name) => path.join(dir, name));
    const whole = readFileSync(file!);
    for (const broken of [whole.subarray(0, whole.length - 1), whole.subarray(0, 20), Buffer.alloc(0), Buffer.from("<p>not a copy</p>")]) {
      writeFileSync(file!, broken);
      expect(await reader.read("/")).toBeUndefined();
    }
  });

  test("a temporary file left by a process that died while writing is never read, and is swept away after a minute", async () => {
    const dir = tempDir();
    let time = Date.now();
    const copies = createPageCopies({ dir, maxAgeMs: TEN_MINUTES, now: () => time });
    await copies.keep("/", await page("home", time));
    const [name] = readdirSync(dir);
    const abandoned = path.join(dir, `${name}.4242.0123456789ab.tmp`);
    writeFileSync(abandoned, "<p>half a pa");
    expect((await copies.read("/"))!.variants.identity.body.toString()).toContain("home");
    await copies.sweep();
    expect(readdirSync(dir)).toContain(path.basename(abandoned));
    time += 61_000;
    await copies.sweep();
    expect(readdirSync(dir)).toEqual([name]);
  });

  test("copies are served up to their age limit (ten minutes), and swept once past it", async () => {
    const dir = tempDir();
    let time = 1_000_000;
    const copies = createPageCopies({ dir, maxAgeMs: TEN_MINUTES, now: () => time });
    await copies.keep("/story/goat", await page("goat", time));
    time += TEN_MINUTES - 1;
    expect(await copies.read("/story/goat")).toBeDefined();
    time += 1;
    expect(await copies.read("/story/goat")).toBeUndefined();
    await copies.sweep();
    expect(readdirSync(dir)).toEqual([]);
  });

  test("the directory is kept to its size bound, the copies rendered longest ago going first", async () => {
    const dir = tempDir();
    let time = 0;
    const maxBytes = 256 * 1024;
    const copies = createPageCopies({ dir, maxAgeMs: TEN_MINUTES, maxBytes, now: () => time });
    // 60 pages of about 20 KB (1.2 MB in all), each rendered a second after the one before.
    for (let i = 0; i < 60; i++) {
      time += 1_000;
      await copies.keep(`/story/${i}`, await makeEntry(200, html, noise(i, 20_000), time));
      expect(sizeOf(dir)).toBeLessThanOrEqual(maxBytes + maxBytes / 16 + 21_000);
    }
    await copies.sweep();
    expect(sizeOf(dir)).toBeLessThanOrEqual(maxBytes);
    const kept = (await Promise.all(Array.from({ length: 60 }, (_, i) => copies.read(`/story/${i}`)))).map((copy) => copy !== undefined);
    // The newest are all there, the oldest all gone.
    const first = kept.indexOf(true);
    expect(first).toBeGreaterThan(40);
    expect(kept.slice(first).every(Boolean)).toBe(true);
  });

  test("a copy another build kept is not served: its page links to scripts and styles this build has not", async () => {
    const dir = tempDir();
    const before = createPageCopies({ dir, maxAgeMs: TEN_MINUTES, version: "build-1", now: () => 0 });
    const after = createPageCopies({ dir, maxAgeMs: TEN_MINUTES, version: "build-2", now: () => 0 });
    await before.keep("/", await page("home", 0));
    expect(await before.read("/")).toBeDefined();
    expect(await after.read("/")).toBeUndefined();
  });
});
