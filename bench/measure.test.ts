import { spawn } from "node:child_process";
import { describe, expect, test } from "vitest";
import { percentile, processTreeMemory, writeMarkedBlock } from "./measure";

const DOC = [
  "# Benchmarks",
  "",
  "Prose before.",
  "",
  "<!-- bench:public:pglite-100000:start -->",
  "old PGlite figures",
  "<!-- bench:public:pglite-100000:end -->",
  "",
  "Prose after.",
  "",
].join("\n");

describe("a marked block of a document", () => {
  test("is replaced between its markers, the prose around it kept", () => {
    const written = writeMarkedBlock(DOC, { name: "bench:public:pglite-100000", group: "bench:public:", body: "new figures\n\n| a | b |\n" });
    expect(written).toBe(DOC.replace("old PGlite figures", "new figures\n\n| a | b |"));
  });

  test("not there yet is added after the last block of its group, and a second run replaces only it", () => {
    const once = writeMarkedBlock(DOC, { name: "bench:public:postgres-1000000", group: "bench:public:", body: "1M figures" });
    expect(once).toContain(
      "<!-- bench:public:pglite-100000:end -->\n\n<!-- bench:public:postgres-1000000:start -->\n1M figures\n<!-- bench:public:postgres-1000000:end -->\n\nProse after.",
    );
    const twice = writeMarkedBlock(once, { name: "bench:public:postgres-1000000", group: "bench:public:", body: "newer 1M figures" });
    expect(twice).toBe(once.replace("1M figures", "newer 1M figures"));
    expect(twice).toContain("old PGlite figures");
  });

  test.each([
    ["no block of its group to follow", "# Benchmarks\n", "no \"<!-- bench:public:...:end -->\" marker"],
    ["a start marker with no end", "<!-- bench:public:pglite-100000:start -->\nfigures\n", "has no"],
  ])("is refused with %s", (_case, document, message) => {
    expect(() => writeMarkedBlock(document, { name: "bench:public:pglite-100000", group: "bench:public:", body: "x" })).toThrow(message);
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

test.each([
  [[], 50, NaN],
  [[5], 99, 5],
  [[1, 2, 3, 4], 50, 2],
  [[4, 3, 2, 1], 99, 4],
])("percentile of %j at p%d is %d", (values, p, expected) => {
  expect(percentile(values, p)).toBe(expected);
});
