import { describe, expect, test } from "vitest";
import { createRateLimiter } from "./rate-limit";

describe("the per-client rate limiter", () => {
  test("allows a burst, then one request per share of the minute, and says how long to wait", () => {
    let now = 0;
    const limiter = createRateLimiter({ burst: 3, perMinute: 6, now: () => now });
    expect([1, 2, 3].map(() => limiter.take("a").ok)).toEqual([true, true, true]);
    expect(limiter.take("a")).toEqual({ ok: false, retryAfterSeconds: 10 });
    now += 4_000;
    expect(limiter.take("a")).toEqual({ ok: false, retryAfterSeconds: 6 });
    now += 6_000;
    expect(limiter.take("a").ok).toBe(true);
    expect(limiter.take("a").ok).toBe(false);
  });

  test("each client has its own allowance", () => {
    const limiter = createRateLimiter({ burst: 1, perMinute: 1, now: () => 0 });
    expect(limiter.take("a").ok).toBe(true);
    expect(limiter.take("a").ok).toBe(false);
    expect(limiter.take("b").ok).toBe(true);
  });

  test("remembers at most maxKeys clients, forgetting the least recently seen", () => {
    const limiter = createRateLimiter({ burst: 1, perMinute: 1, maxKeys: 2, now: () => 0 });
    limiter.take("a");
    limiter.take("b");
    limiter.take("c");
    // "a" was forgotten and starts again with a full bucket; "c" is still remembered.
    expect(limiter.take("a").ok).toBe(true);
    expect(limiter.take("c").ok).toBe(false);
  });
});
