import { sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { testDatabaseForFile } from "../testing/test-database";

const t = testDatabaseForFile();
const rule = { window: 60, max: 5 };

/** Moves a key's window `seconds` into the past, as if that much time had gone by. */
async function age(key: string, seconds: number) {
  await t.db.execute(sql`UPDATE auth_rate_limits SET window_started_at = window_started_at - make_interval(secs => ${seconds}) WHERE key = ${key}`);
}

describe("rate-limit counters in the database", () => {
  test("allow `max` hits in a window, then refuse with the seconds left", async () => {
    const decisions = [];
    for (let i = 0; i < 7; i++) decisions.push(await t.repos.rateLimits.consume("ip:a", rule));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, true, false, false]);
    const refused = decisions.at(-1)!;
    expect(refused.retryAfter).toBeGreaterThan(55);
    expect(refused.retryAfter).toBeLessThanOrEqual(60);
    // Refused hits are not counted: the row still says five.
    const rows = (await t.db.execute(sql`SELECT hits FROM auth_rate_limits WHERE key = 'ip:a'`)) as unknown as { rows: { hits: number }[] };
    expect(rows.rows[0]?.hits).toBe(5);
    // Another key is counted apart.
    expect((await t.repos.rateLimits.consume("ip:b", rule)).allowed).toBe(true);
  });

  test("concurrent hits cannot pass a stale read: exactly `max` of 20 at once are allowed", async () => {
    const decisions = await Promise.all(Array.from({ length: 20 }, () => t.repos.rateLimits.consume("ip:burst", rule)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(5);
  });

  test("a window that has ended starts again at one; one still open keeps refusing", async () => {
    for (let i = 0; i < 5; i++) await t.repos.rateLimits.consume("ip:c", rule);
    await age("ip:c", 50);
    const stillRefused = await t.repos.rateLimits.consume("ip:c", rule);
    expect(stillRefused.allowed).toBe(false);
    expect(stillRefused.retryAfter).toBeLessThanOrEqual(10);
    await age("ip:c", 11);
    expect((await t.repos.rateLimits.consume("ip:c", rule)).allowed).toBe(true);
    for (let i = 0; i < 4; i++) expect((await t.repos.rateLimits.consume("ip:c", rule)).allowed).toBe(true);
    expect((await t.repos.rateLimits.consume("ip:c", rule)).allowed).toBe(false);
  });

  test("clear forgets a key; prune deletes only the counters of windows long gone", async () => {
    for (let i = 0; i < 5; i++) await t.repos.rateLimits.consume("account:x", rule);
    await t.repos.rateLimits.clear("account:x");
    expect((await t.repos.rateLimits.consume("account:x", rule)).allowed).toBe(true);

    await t.repos.rateLimits.consume("old", rule);
    await age("old", 2 * 86_400);
    expect(await t.repos.rateLimits.prune(86_400)).toBe(1);
    const keys = (await t.db.execute(sql`SELECT key FROM auth_rate_limits ORDER BY key`)) as unknown as { rows: { key: string }[] };
    expect(keys.rows.map((r) => r.key)).toEqual(["account:x"]);
  });
});
