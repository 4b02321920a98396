import { describe, expect, test } from "vitest";
import { maxAgeMs, MAX_DELAY_MS, nextCheckAfterFailure, nextCheckAfterSuccess, statusAfterRun } from "./schedule";

const now = new Date("2026-03-01T12:00:00Z");
const minutes = (date: Date) => (date.getTime() - now.getTime()) / 60_000;

describe("polling schedule", () => {
  test("a successful poll waits the source's interval", () => {
    expect(minutes(nextCheckAfterSuccess({ now, pollIntervalMinutes: 30 }))).toBe(30);
  });

  test.each([
    { retryAfter: "7200", cacheControl: null, expected: 120, why: "Retry-After in seconds" },
    { retryAfter: "Sun, 01 Mar 2026 13:30:00 GMT", cacheControl: null, expected: 90, why: "Retry-After as a date" },
    { retryAfter: null, cacheControl: "public, max-age=3600", expected: 60, why: "Cache-Control max-age" },
    { retryAfter: null, cacheControl: "max-age=60", expected: 30, why: "a shorter max-age never polls sooner than the interval" },
    { retryAfter: "999999", cacheControl: null, expected: 24 * 60, why: "an absurd Retry-After is capped at 24 hours" },
    { retryAfter: "soon", cacheControl: "no-cache", expected: 30, why: "unreadable headers are ignored" },
  ])("a successful poll honours $why", ({ retryAfter, cacheControl, expected }) => {
    expect(minutes(nextCheckAfterSuccess({ now, pollIntervalMinutes: 30, retryAfter, cacheControl }))).toBe(expected);
  });

  test("failures back off exponentially from the interval", () => {
    const delays = [1, 2, 3, 4].map((n) =>
      minutes(nextCheckAfterFailure({ now, pollIntervalMinutes: 30, consecutiveErrors: n, random: () => 0.5 })),
    );
    expect(delays).toEqual([30, 60, 120, 240]);
  });

  test("back-off is jittered by at most a fifth either way", () => {
    const low = minutes(nextCheckAfterFailure({ now, pollIntervalMinutes: 30, consecutiveErrors: 2, random: () => 0 }));
    const high = minutes(nextCheckAfterFailure({ now, pollIntervalMinutes: 30, consecutiveErrors: 2, random: () => 0.999999 }));
    expect(low).toBe(48);
    expect(high).toBeCloseTo(72, 3);
  });

  test("back-off is capped at 24 hours, however many failures", () => {
    const at = nextCheckAfterFailure({ now, pollIntervalMinutes: 30, consecutiveErrors: 60, random: () => 0.999 });
    expect(at.getTime() - now.getTime()).toBe(MAX_DELAY_MS);
  });

  test("a failure's Retry-After wins when it is longer than the back-off", () => {
    expect(minutes(nextCheckAfterFailure({ now, pollIntervalMinutes: 30, consecutiveErrors: 1, retryAfter: "10800", random: () => 0.5 }))).toBe(180);
  });

  test("three failures in a row put a source in error; a success brings it back", () => {
    expect(statusAfterRun("active", 1)).toBe("active");
    expect(statusAfterRun("active", 2)).toBe("active");
    expect(statusAfterRun("active", 3)).toBe("error");
    expect(statusAfterRun("error", 0)).toBe("active");
    expect(statusAfterRun("inactive", 5)).toBe("inactive");
  });

  test("Cache-Control's max-age", () => {
    expect(maxAgeMs('private, s-maxage="300"')).toBe(300_000);
    expect(maxAgeMs("no-store")).toBeNull();
  });
});
