import { describe, expect, test } from "vitest";
import { formatRate } from "./source-yield";

describe("a publish rate as the Sources page shows it", () => {
  test.each([
    [0, "0%"],
    [1 / 3, "33%"],
    [0.025, "2.5%"],
    [0.0004, "<0.1%"],
    [0.0996, "10%"],
    [0.0994, "9.9%"],
    [1, "100%"],
  ])("%s reads %s", (rate, text) => {
    expect(formatRate(rate)).toBe(text);
  });
});
