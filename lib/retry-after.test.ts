import { expect, test } from "vitest";
import { retryAfterMs } from "./retry-after";

const NOW = new Date("2026-03-01T12:00:00Z");

test.each([
  ["120", 120_000],
  [" 30 ", 30_000],
  ["0", 0],
  ["Sun, 01 Mar 2026 12:05:00 GMT", 300_000],
  ["Sun, 01 Mar 2026 11:00:00 GMT", 0],
  ["soon", null],
  ["", null],
  [null, null],
  [undefined, null],
])("Retry-After %j asks for %j ms", (value, expected) => {
  expect(retryAfterMs(value, NOW)).toBe(expected);
});
