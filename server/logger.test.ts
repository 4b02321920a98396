import { spawnSync } from "node:child_process";
import path from "node:path";
import { expect, test } from "vitest";

// A child process writes through the logger to its stdout, as `serve` does, and the test reads it.
function logLines(pretty: boolean | undefined): string {
  const logger = path.join(import.meta.dirname, "logger.ts");
  const script = `const { createLogger } = await import(${JSON.stringify(logger)});
    const log = createLogger(${pretty === undefined ? "" : `{ pretty: ${pretty} }`});
    log.info({ url: "http://localhost:3000", password: "hunter22-secret" }, "listening");`;
  const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8", timeout: 60_000 });
  expect(child.status).toBe(0);
  return child.stdout;
}

test("a terminal gets short readable lines, secrets redacted", () => {
  const out = logLines(true);
  expect(out).toMatch(/^\[\d\d:\d\d:\d\d\] .*INFO.*: .*listening/);
  expect(out).toContain("http://localhost:3000");
  expect(out).not.toContain("hunter22-secret");
  expect(() => JSON.parse(out)).toThrow();
});

test("anything else (a file, a pipe, a log collector) gets one JSON object per line, secrets redacted", () => {
  // The child's stdout is a pipe here, so without `pretty` it is JSON.
  const out = logLines(undefined);
  const line = JSON.parse(out.trim()) as { level: number; msg: string; url: string; password: string };
  expect(line).toMatchObject({ level: 30, msg: "listening", url: "http://localhost:3000", password: "[redacted]" });
});
