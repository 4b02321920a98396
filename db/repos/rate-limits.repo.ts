import { sql } from "drizzle-orm";
import type { Db } from "../client";

/** At most `max` hits per `window` seconds; the window starts at a key's first hit. */
export type RateLimitRule = { window: number; max: number };
export type RateLimitDecision = { allowed: boolean; retryAfter: number | null };

/**
 * Fixed-window counters shared by every process on the database. `consume` counts a hit and decides
 * in one statement, so concurrent requests cannot all slip past a stale read; the clock is the
 * database's, so processes on machines whose clocks differ agree.
 */
export function rateLimitsRepo(db: Db) {
  return {
    async consume(key: string, rule: RateLimitRule): Promise<RateLimitDecision> {
      const window = sql`make_interval(secs => ${rule.window})`;
      // A new key or an ended window starts at 1; a hit inside the window counts only while under the limit.
      const counted = (await db.execute(sql`
        INSERT INTO auth_rate_limits AS r (key, hits, window_started_at) VALUES (${key}, 1, now())
        ON CONFLICT (key) DO UPDATE SET
          hits = CASE WHEN r.window_started_at <= now() - ${window} THEN 1 ELSE r.hits + 1 END,
          window_started_at = CASE WHEN r.window_started_at <= now() - ${window} THEN now() ELSE r.window_started_at END
        WHERE r.window_started_at <= now() - ${window} OR r.hits < ${rule.max}
        RETURNING hits`)) as unknown as { rows: unknown[] };
      if (counted.rows.length > 0) return { allowed: true, retryAfter: null };
      const refused = (await db.execute(sql`
        SELECT greatest(1, ceil(extract(epoch FROM window_started_at + ${window} - now())))::int AS "retryAfter"
        FROM auth_rate_limits WHERE key = ${key}`)) as unknown as { rows: { retryAfter: number }[] };
      return { allowed: false, retryAfter: refused.rows[0]?.retryAfter ?? 1 };
    },

    /** Forgets a key (an account's failed sign-ins, once it signs in). */
    async clear(key: string): Promise<void> {
      await db.execute(sql`DELETE FROM auth_rate_limits WHERE key = ${key}`);
    },

    /** Deletes the counters whose window started more than `olderThanSeconds` ago; returns how many. */
    async prune(olderThanSeconds: number): Promise<number> {
      const result = (await db.execute(
        sql`DELETE FROM auth_rate_limits WHERE window_started_at < now() - make_interval(secs => ${olderThanSeconds})`,
      )) as unknown as { rowCount?: number; affectedRows?: number };
      return Number(result.rowCount ?? result.affectedRows ?? 0);
    },
  };
}
export type RateLimitsRepo = ReturnType<typeof rateLimitsRepo>;
