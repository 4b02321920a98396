import { spawnSync } from "node:child_process";
import path from "node:path";
import { expect, test } from "vitest";

// A configured secret (configSecrets) with characters JSON escapes and URLs encode.
const CONFIGURED = 'db-pass"word/value';

// A child process writes through the logger to its stdout, as `serve` does, and the test reads it.
function logLines(pretty: boolean | undefined, extra = ""): string {
  const logger = path.join(import.meta.dirname, "logger.ts");
  const script = `const { createLogger } = await import(${JSON.stringify(logger)});
    const log = createLogger({ ${pretty === undefined ? "" : `pretty: ${pretty}, `}secrets: ${JSON.stringify([CONFIGURED])} });
    log.info({ url: "http://localhost:3000", password: "hunter22-secret" }, "listening");
    ${extra}`;
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

test.each([
  ["JSON", undefined],
  ["a terminal", true],
] as const)("a configured secret inside any string of a line (%s) is replaced: message, field, error, URL", (_name, pretty) => {
  const out = logLines(
    pretty,
    `const secret = ${JSON.stringify(CONFIGURED)};
    log.warn({ err: new Error("auth failed for " + secret), detail: { reason: "quoting " + secret } }, "refused: " + secret);
    log.child({ database: "postgres://app:" + encodeURIComponent(secret) + "@db/oddwire" }).error("lost");`,
  );
  expect(out).toContain("refused: [redacted]");
  expect(out).toContain("auth failed for [redacted]");
  expect(out).toContain("postgres://app:[redacted]@db/oddwire");
  for (const form of [CONFIGURED, encodeURIComponent(CONFIGURED), JSON.stringify(CONFIGURED).slice(1, -1), "word/value", "word%2Fvalue"]) expect(out).not.toContain(form);
});

test("an error is logged with its message and code, without the database client node-postgres attaches to it", () => {
  const out = logLines(false, `const error = Object.assign(new Error("terminating connection"), { code: "57P01", client: { connectionParameters: { host: "/tmp/x" }, _types: {} } });
    log.error({ err: error }, "job queue error");`);
  const line = JSON.parse(out.trim().split("\n").at(-1)!) as { err: Record<string, unknown> };
  expect(line.err).toMatchObject({ message: "terminating connection", code: "57P01" });
  expect(line.err).not.toHaveProperty("client");
});
