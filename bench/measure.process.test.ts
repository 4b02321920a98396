import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { startEmbeddedServer } from "~/db/embedded/server";
import { TEST_SETTINGS } from "~/db/embedded/testing/helpers";
import { tempDir } from "~/test/temp-dir";
import { embeddedDatabaseMemory, percentile, processTreeMemory, writeMarkedBlock } from "./measure";

const DOC = [
  "# Benchmarks",
  "",
  "Prose before.",
  "",
  "<!-- bench:public:embedded-100000:start -->",
  "old figures",
  "<!-- bench:public:embedded-100000:end -->",
  "",
  "Prose after.",
  "",
].join("\n");

describe("a marked block of a document", () => {
  test("is replaced between its markers, the prose around it kept", () => {
    const written = writeMarkedBlock(DOC, { name: "bench:public:embedded-100000", group: "bench:public:", body: "new figures\n\n| a | b |\n" });
    expect(written).toBe(DOC.replace("old figures", "new figures\n\n| a | b |"));
  });

  test("not there yet is added after the last block of its group, and a second run replaces only it", () => {
    const once = writeMarkedBlock(DOC, { name: "bench:public:postgres-1000000", group: "bench:public:", body: "1M figures" });
    expect(once).toContain(
      "<!-- bench:public:embedded-100000:end -->\n\n<!-- bench:public:postgres-1000000:start -->\n1M figures\n<!-- bench:public:postgres-1000000:end -->\n\nProse after.",
    );
    const twice = writeMarkedBlock(once, { name: "bench:public:postgres-1000000", group: "bench:public:", body: "newer 1M figures" });
    expect(twice).toBe(once.replace("1M figures", "newer 1M figures"));
    expect(twice).toContain("old figures");
  });

  test.each([
    ["no block of its group to follow", "# Benchmarks\n", "no \"<!-- bench:public:...:end -->\" marker"],
    ["a start marker with no end", "<!-- bench:public:embedded-100000:start -->\nfigures\n", "has no"],
  ])("is refused with %s", (_case, document, message) => {
    expect(() => writeMarkedBlock(document, { name: "bench:public:embedded-100000", group: "bench:public:", body: "x" })).toThrow(message);
  });
});

describe("the memory of a process tree", () => {
  test("lists the process first, then the processes it started, each with its resident memory", async () => {
    const child = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      await new Promise((resolve) => child.once("spawn", resolve));
      const tree = processTreeMemory(process.pid);
      expect(tree[0]).toMatchObject({ pid: process.pid, parent: null });
      expect(tree.find((p) => p.pid === child.pid)).toMatchObject({ parent: process.pid, command: "sleep" });
      for (const p of tree) expect(p.rssMiB).toBeGreaterThan(0);
    } finally {
      child.kill();
    }
  });

  test("is empty for a process that has ended", async () => {
    const child = spawn("true", { stdio: "ignore" });
    await new Promise((resolve) => child.once("exit", resolve));
    expect(processTreeMemory(child.pid!)).toEqual([]);
  });
});

describe("the memory of the embedded server", () => {
  test("lists its postmaster first, then every process under it, each by PSS", async () => {
    const dataDir = tempDir("oddwire-measure-");
    try {
      const server = await startEmbeddedServer({ dataDir, role: "command", settings: TEST_SETTINGS });
      try {
        const postmaster = Number(readFileSync(path.join(dataDir, "postgres", "pgdata", "postmaster.pid"), "utf8").split("\n")[0]);
        const memory = embeddedDatabaseMemory(dataDir);
        expect(memory[0]).toMatchObject({ pid: postmaster, command: "postgres" });
        // The checkpointer, background writer, WAL writer, autovacuum launcher... are its children.
        expect(memory.length).toBeGreaterThanOrEqual(4);
        expect(memory.slice(1).map((p) => p.command).join("; ")).toMatch(/checkpointer/);
        for (const p of memory) {
          expect(p.pssMiB).toBeGreaterThan(0);
          expect(p.pssMiB).toBeLessThanOrEqual(p.rssMiB);
        }
      } finally {
        await server.stop();
      }
      expect(embeddedDatabaseMemory(dataDir)).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test("is empty for a DATA_DIR with no server", () => {
    const dataDir = tempDir("oddwire-measure-");
    try {
      expect(embeddedDatabaseMemory(dataDir)).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

test.each([
  [[], 50, NaN],
  [[5], 99, 5],
  [[1, 2, 3, 4], 50, 2],
  [[4, 3, 2, 1], 99, 4],
])("percentile of %j at p%d is %d", (values, p, expected) => {
  expect(percentile(values, p)).toBe(expected);
});
