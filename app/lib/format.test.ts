import { expect, test } from "vitest";
import { formatDate, formatTime } from "./format";

test.each([
  ["2025-03-04T05:06:07Z", "Mar 4, 2025"],
  ["2025-12-31T23:59:59Z", "Dec 31, 2025"],
  [null, ""],
  ["not a date", ""],
])("formats %s as %j", (input, expected) => {
  expect(formatDate(input)).toBe(expected);
});

test.each([
  ["2025-03-04T05:06:07Z", "05:06"],
  ["2025-03-04T23:59:00Z", "23:59"],
  [null, ""],
])("formats the time of %s as %j", (input, expected) => {
  expect(formatTime(input)).toBe(expected);
});
