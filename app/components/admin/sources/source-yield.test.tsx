import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, test } from "vitest";
import { formatRate, SourceYieldLine } from "./source-yield";

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

test("a busy source's figures are read with thousands separated", () => {
  const figures = { sourceId: 1, name: "Wire", status: "active" as const, broughtIn: 12_040, published: 1_119, rejected: 9_901, pending: 1_020, publishRate: 1_119 / 12_040, lastPublishedAt: null };
  const text = renderToStaticMarkup(<SourceYieldLine figures={figures} days={30} />).replace(/<[^>]+>/g, "");
  expect(text).toBe("Yield, last 30 days: 12,040 brought in · 1,119 published · 9,901 rejected · 1,020 pending · 9.3% published · never published");
});
