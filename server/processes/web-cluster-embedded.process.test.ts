import type { ChildProcess } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { tempDir } from "~/test/temp-dir";
import { startOddwire, type OddwireProcess } from "~/test/oddwire-process";
import { ensureWebBuild, getAlone, webProcessesOf } from "~/test/web-processes";

// `serve` on the embedded default (no DATABASE_URL) with WEB_CONCURRENCY=2: the primary starts the
// database server in DATA_DIR, and two web processes serve on it (decision 025).

const postmasterFile = (dataDir: string) => path.join(dataDir, "postgres", "pgdata", "postmaster.pid");

describe("the embedded default served by several web processes", () => {
  const dataDir = tempDir("oddwire-cluster-embedded-");
  let serve: OddwireProcess;
  let primary: ChildProcess;
  let base = "";

  beforeAll(async () => {
    ensureWebBuild();
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", WEB_CONCURRENCY: "2", LOG_LEVEL: "info" };
    delete env.DATABASE_URL;
    delete env.AUTH_SECRET;
    // As `npm run demo` starts it: the file itself, run by its first line.
    serve = startOddwire(["serve", "--demo"], env, { asFile: true });
    primary = serve.child;
    const [, url] = await serve.printed(/Oddwire is serving on (http:\/\/\S+?)"/, "the site to be served", 60_000);
    base = url!.replace("localhost", "127.0.0.1");
  }, 180_000);

  afterAll(() => {
    if (primary.exitCode === null) primary.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("two web processes answer pages read from the embedded database", async () => {
    expect(webProcessesOf(primary.pid!)).toHaveLength(2);
    expect(existsSync(postmasterFile(dataDir))).toBe(true);
    // Requests on connections of their own go to each web process in turn: both render the demo's stories.
    for (let i = 0; i < 4; i++) {
      const home = await getAlone(`${base}/`);
      expect(home.status).toBe(200);
      expect(home.body).toContain("<article");
    }
    expect((await getAlone(`${base}/readyz`)).status).toBe(200);
    // The embedded server's secret is in no log line.
    expect(serve.output()).not.toContain(readFileSync(path.join(dataDir, "postgres.secret"), "utf8").trim());
  });

  test("the primary and each web process run with the small young generation bin/oddwire.mjs asks for", () => {
    const flagsOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter((arg) => arg.startsWith("--max-semi-space-size="));
    expect(flagsOf(primary.pid!)).toEqual(["--max-semi-space-size=2"]);
    const web = webProcessesOf(primary.pid!);
    expect(web).toHaveLength(2);
    for (const pid of web) expect(flagsOf(pid)).toEqual(["--max-semi-space-size=2"]);
  });

  test("SIGTERM stops the web processes, the primary and the database server", async () => {
    const web = webProcessesOf(primary.pid!);
    primary.kill("SIGTERM");
    expect((await serve.exited).code).toBe(0);
    for (const pid of web) expect(() => process.kill(pid, 0)).toThrow();
    expect(existsSync(postmasterFile(dataDir))).toBe(false);
  }, 60_000);
});
