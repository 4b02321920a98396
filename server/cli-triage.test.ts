import { describe, expect, test } from "vitest";
import type { Db } from "~/db/client";
import { runCli, useCliEnvironment } from "./cli-harness";

const cliEnvironment = useCliEnvironment("oddwire-cli-triage");

/** Stories and rejections through the same database the commands open. */
async function withDatabase(work: (db: Db) => Promise<void>) {
  const { openEmbeddedDatabase } = await import("./database");
  const database = await openEmbeddedDatabase(cliEnvironment.dataDir());
  try {
    await work(database.db);
  } finally {
    await database.close();
  }
}

describe("source:stats", () => {
  test("prints each source's yield over the window, best first, a source with no items as zeros", async () => {
    expect((await runCli(["source:add", "--name", "Busy Wire", "--type", "manual"])).code).toBe(0);
    expect((await runCli(["source:add", "--name", "Empty Feed", "--type", "manual"])).code).toBe(0);
    const { makeRejectedStory, makeStory } = await import("~/db/testing/factories");
    const { sources } = await import("~/db/schema");
    const day = 86_400_000;
    await withDatabase(async (db) => {
      const [busy] = await db.select().from(sources);
      const sourceId = busy!.id;
      await makeStory(db, { sourceId, status: "published", createdAt: new Date(Date.now() - 2 * day), publishDate: new Date(Date.now() - day) });
      await makeStory(db, { sourceId, status: "pending", createdAt: new Date(Date.now() - 3 * day) });
      await makeStory(db, { sourceId, status: "pending", createdAt: new Date(Date.now() - 20 * day) });
      await makeRejectedStory(db, { sourceId, ingestedAt: new Date(Date.now() - day), rejectedAt: new Date() });
    });

    const week = await runCli(["source:stats", "--days", "7"]);
    expect(week.code).toBe(0);
    const report = week.json() as { days: number; since: string; sources: Record<string, unknown>[] };
    expect(report.days).toBe(7);
    expect(report.sources).toEqual([
      { sourceId: expect.any(Number), name: "Busy Wire", status: "active", broughtIn: 3, published: 1, rejected: 1, pending: 1, publishRate: 1 / 3, lastPublishedAt: expect.any(String) },
      { sourceId: expect.any(Number), name: "Empty Feed", status: "active", broughtIn: 0, published: 0, rejected: 0, pending: 0, publishRate: null, lastPublishedAt: null },
    ]);
    // Without --days: the last 30 days, where the older pending story counts too.
    const month = await runCli(["source:stats"]);
    expect(month.json()).toMatchObject({ days: 30, sources: [{ name: "Busy Wire", broughtIn: 4, pending: 2, publishRate: 0.25 }, { name: "Empty Feed", broughtIn: 0 }] });
  });

  test("is listed in the help", async () => {
    const { out } = await runCli(["--help"]);
    expect(out.join("\n")).toMatch(/^\s+source:stats \[--days N\]\s+each source's yield/m);
  });

  test.each([["0"], ["-3"], ["1.5"], ["ten"], ["3651"]])("--days %s is a usage error", async (days) => {
    const { code, error } = await runCli(["source:stats", "--days", days]);
    expect(code).toBe(2);
    expect(error().code).toBe("USAGE");
  });
});
