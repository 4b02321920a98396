import { afterEach, expect, test, vi } from "vitest";
import { dateOf, systemClock, type Clock } from "./clock";

afterEach(() => {
  vi.useRealTimers();
});

test.each([
  [0, "1970-01-01T00:00:00.000Z"],
  [Date.parse("2026-11-26T20:00:00.123Z"), "2026-11-26T20:00:00.123Z"],
  [-86_400_000, "1969-12-31T00:00:00.000Z"],
])("a clock reading %d is the date %s", (reading, iso) => {
  const now: Clock = () => reading;
  expect(dateOf(now).toISOString()).toBe(iso);
});

test("the system clock follows fake timers, read at each call", () => {
  vi.useFakeTimers({ now: new Date("2026-01-01T00:00:00Z") });
  expect(systemClock()).toBe(Date.parse("2026-01-01T00:00:00Z"));
  vi.advanceTimersByTime(1_500);
  expect(dateOf(systemClock).toISOString()).toBe("2026-01-01T00:00:01.500Z");
});
