import { systemClock, type Clock } from "./clock";

/** The answer of a rate limiter: go ahead, or wait this many seconds. */
export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * Takes one unit of a key's allowance (a client's address, say). A limiter shared by several
 * processes answers asynchronously.
 */
export type RateLimiter = { take(key: string): RateDecision | Promise<RateDecision> };

/**
 * A token bucket per key, in this process's memory: `burst` at once, then `perMinute` spread over
 * the minute. At most `maxKeys` keys are remembered (the least recently seen go first), so a flood
 * of addresses cannot grow it without bound; a forgotten key starts again with a full bucket.
 */
export function createRateLimiter(options: { burst: number; perMinute: number; maxKeys?: number; now?: Clock }): { take(key: string): RateDecision } {
  const { burst, perMinute } = options;
  const maxKeys = options.maxKeys ?? 10_000;
  const now = options.now ?? systemClock;
  const msPerToken = 60_000 / perMinute;
  // A Map iterates in insertion order: re-inserting on each take keeps the least recent first.
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(key) {
      const t = now();
      const previous = buckets.get(key);
      buckets.delete(key);
      const tokens = previous ? Math.min(burst, previous.tokens + (t - previous.at) / msPerToken) : burst;
      const ok = tokens >= 1;
      buckets.set(key, { tokens: ok ? tokens - 1 : tokens, at: t });
      if (buckets.size > maxKeys) buckets.delete(buckets.keys().next().value as string);
      return ok ? { ok: true } : { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(((1 - tokens) * msPerToken) / 1000)) };
    },
  };
}
