import { existsSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { createServer, connect, type Server } from "node:net";
import pino from "pino";
import { afterEach, describe, expect, inject, test } from "vitest";
import { openConfiguredDatabase } from "./database";
import { makeUser } from "~/db/testing/factories";
import { openEarlierDatabase } from "~/db/testing/earlier-pglite";
import { freePort } from "~/test/http-test-server";
import { tempDir } from "~/test/temp-dir";

const testDatabase = inject("testDatabase");
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A logger whose entries the test reads. */
function recordingLogger() {
  const entries: Record<string, unknown>[] = [];
  const logger = pino({ level: "info" }, { write: (line: string) => void entries.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, entries };
}

const configFor = (databaseUrl: string) => ({ databaseUrl, dataDir: "/nonexistent" });

describe("opening PostgreSQL at start-up", () => {
  test("an unreachable server fails at once for the CLI, and after its retries, each said in the log, for the server", async () => {
    const url = `postgres://postgres@127.0.0.1:${await freePort()}/postgres`;
    await expect(openConfiguredDatabase(configFor(url))).rejects.toThrow(/Cannot connect to PostgreSQL/);
    const { logger, entries } = recordingLogger();
    await expect(openConfiguredDatabase(configFor(url), logger, { retryForMs: 1_000, sleep: async () => {} })).rejects.toThrow(/Cannot connect to PostgreSQL/);
    const retries = entries.filter((e) => e.msg === "PostgreSQL is not reachable yet; trying again");
    expect(retries.length).toBeGreaterThanOrEqual(1);
    expect(retries[0]).toMatchObject({ attempt: 1, retryInMs: 500 });
  });

  test("a server that comes up later is waited for, and the wait is said in the log", async () => {
    const target = new URL(testDatabase.url);
    const port = await freePort();
    const url = new URL(target.href);
    url.hostname = "127.0.0.1";
    url.port = String(port);
    // The embedded server listens on a socket only (its URL names the socket's directory): the relay is TCP.
    const socketDir = target.searchParams.get("host");
    url.searchParams.delete("host");
    const { logger, entries } = recordingLogger();
    // PostgreSQL "comes up" on the port after the first refusals: a relay to the real server.
    let started = false;
    const sleep = async (ms: number) => {
      await new Promise((resolve) => setTimeout(resolve, Math.min(ms, 200)));
      if (started) return;
      started = true;
      const relay = createServer((client) => {
        const upstream = socketDir ? connect(path.join(socketDir, ".s.PGSQL.5432")) : connect(Number(target.port || 5432), target.hostname);
        client.pipe(upstream).pipe(client);
        client.on("error", () => upstream.destroy());
        upstream.on("error", () => client.destroy());
      });
      servers.push(relay);
      await new Promise<void>((resolve) => relay.listen(port, "127.0.0.1", resolve));
    };
    const database = await openConfiguredDatabase(configFor(url.href), logger, { retryForMs: 30_000, sleep });
    try {
      expect(entries.some((e) => e.msg === "PostgreSQL is not reachable yet; trying again")).toBe(true);
      expect(entries.some((e) => e.msg === "PostgreSQL is reachable")).toBe(true);
    } finally {
      await database.close();
    }
  });

  test("a database that does not exist is not waited for", async () => {
    const url = new URL(testDatabase.url);
    url.pathname = "/oddwire_no_such_database";
    const slept: number[] = [];
    await expect(openConfiguredDatabase(configFor(url.href), undefined, { retryForMs: 30_000, sleep: async (ms) => void slept.push(ms) })).rejects.toThrow(
      /does not exist/,
    );
    expect(slept).toEqual([]);
  });
});

describe("opening the embedded database", () => {
  test("an earlier release's DATA_DIR is carried over at its first open: its data is there, the old files kept aside, the log says so", async () => {
    const dataDir = tempDir("oddwire-carry-over-");
    try {
      const earlier = await openEarlierDatabase(dataDir);
      try {
        await makeUser(earlier.db, { email: "kept@oddwire.test" });
      } finally {
        await earlier.close();
      }
      const { logger, entries } = recordingLogger();
      const database = await openConfiguredDatabase({ dataDir, databaseUrl: undefined }, logger);
      try {
        const users = await database.pool.query<{ email: string }>("SELECT email FROM users");
        expect(users.rows).toEqual([{ email: "kept@oddwire.test" }]);
      } finally {
        await database.close();
      }
      expect(existsSync(path.join(dataDir, "pglite"))).toBe(false);
      expect(readdirSync(dataDir).filter((name) => name.startsWith("pglite.carried-over-"))).toHaveLength(1);
      expect(entries.filter((entry) => /^carried the earlier release.s embedded database over/.test(String(entry.msg)))).toHaveLength(1);

      // The next open finds nothing more to carry over.
      const again = await openConfiguredDatabase({ dataDir, databaseUrl: undefined }, logger);
      await again.close();
      expect(entries.filter((entry) => /^carried the earlier release.s embedded database over/.test(String(entry.msg)))).toHaveLength(1);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
