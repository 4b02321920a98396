import { expect, test } from "vitest";
import { formatDate } from "./format";

test.each([
  ["2025-03-04T05:06:07Z", "Mar 4, 2025"],
  ["2025-12-31T23:59:59Z", "Dec 31, 2025"],
  [null, ""],
  ["not a date", ""],
])("formats %s as %j", (input, expected) => {
  expect(formatDate(input)).toBe(expected);
});
