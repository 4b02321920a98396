/** How long a source waits between polls, and what three failures in a row do to it. */

import { retryAfterMs } from "~/lib/retry-after";

const MINUTE = 60_000;
export const MAX_DELAY_MS = 24 * 60 * MINUTE;
export const FAILURES_BEFORE_ERROR = 3;
export const STORAGE_RETRY_MINUTES = 5;

/** max-age (or s-maxage) of a Cache-Control header in ms, or null. */
export function maxAgeMs(cacheControl: string | null | undefined): number | null {
  if (!cacheControl) return null;
  const match = /(?:^|,)\s*(?:s-maxage|max-age)\s*=\s*"?(\d+)"?/i.exec(cacheControl);
  return match ? Number(match[1]) * 1000 : null;
}

/** When to poll again after a successful fetch: the interval, or later if the server asked for it (never past 24 h). */
export function nextCheckAfterSuccess(input: {
  now: Date;
  pollIntervalMinutes: number;
  retryAfter?: string | null;
  cacheControl?: string | null;
}): Date {
  const asked = Math.max(retryAfterMs(input.retryAfter, input.now) ?? 0, maxAgeMs(input.cacheControl) ?? 0);
  const delay = Math.min(MAX_DELAY_MS, Math.max(input.pollIntervalMinutes * MINUTE, asked));
  return new Date(input.now.getTime() + delay);
}

/**
 * When to try again after the n-th failure in a row: the interval doubled per failure, with
 * ±20 % jitter so failing sources spread out, capped at 24 hours; a longer Retry-After wins (still capped).
 */
export function nextCheckAfterFailure(input: {
  now: Date;
  pollIntervalMinutes: number;
  consecutiveErrors: number;
  retryAfter?: string | null;
  random?: () => number;
}): Date {
  const random = input.random ?? Math.random;
  const exponent = Math.min(Math.max(input.consecutiveErrors - 1, 0), 20);
  const base = Math.min(MAX_DELAY_MS, input.pollIntervalMinutes * MINUTE * 2 ** exponent);
  const jittered = base * (0.8 + 0.4 * random());
  const asked = retryAfterMs(input.retryAfter, input.now) ?? 0;
  const delay = Math.min(MAX_DELAY_MS, Math.max(jittered, asked));
  return new Date(input.now.getTime() + delay);
}

/** When to try again after our own database failed to store a feed's items: soon, and never later than the usual poll. */
export function nextCheckAfterStorageFailure(input: { now: Date; pollIntervalMinutes: number }): Date {
  const delay = Math.min(STORAGE_RETRY_MINUTES, input.pollIntervalMinutes) * MINUTE;
  return new Date(input.now.getTime() + delay);
}

/** A source's status after a run: error after three failures in a row, active again after a success. */
export function statusAfterRun(current: "active" | "inactive" | "error", consecutiveErrors: number): "active" | "inactive" | "error" {
  if (current === "inactive") return "inactive";
  return consecutiveErrors >= FAILURES_BEFORE_ERROR ? "error" : "active";
}
