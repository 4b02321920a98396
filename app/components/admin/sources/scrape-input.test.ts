import { describe, expect, test } from "vitest";
import type { ScrapeOutcome } from "~/domain/ingestion/scrape-urls";
import { chunk, detectedUrlsLine, keptUrlsLine, parseScrapeInput, urlsToRetry } from "./scrape-input";

describe("reading pasted URLs for a manual scrape", () => {
  test.each([
    ["nothing pasted gives no URLs", "", []],
    ["only blanks give no URLs", "  \n\t , ,", []],
    ["one URL per line", "https://a.example/1\nhttp://b.example/2", ["https://a.example/1", "http://b.example/2"]],
    ["commas and spaces separate too", "https://a.example/1, https://b.example/2 https://c.example/3", ["https://a.example/1", "https://b.example/2", "https://c.example/3"]],
    ["Windows line ends and tabs", "https://a.example/1\r\n\thttps://b.example/2", ["https://a.example/1", "https://b.example/2"]],
    ["words and bare hosts do not count", "see example.com and www.odd.example/story", []],
    ["other schemes do not count", "ftp://a.example/f javascript:alert(1) mailto:x@a.example", []],
    ["a scheme with nothing after it does not count", "https:// http://", []],
    ["the scheme may be in capitals", "HTTPS://A.example/Story", ["HTTPS://A.example/Story"]],
    ["a URL mentioned in a sentence still counts", "Read this:https://a.example/x or https://b.example/y.", ["https://b.example/y."]],
    ["the same URL pasted twice counts once", "https://a.example/1\nhttps://a.example/1", ["https://a.example/1"]],
  ])("%s", (_name, text, expected) => {
    expect(parseScrapeInput(text)).toEqual(expected);
  });
});

describe("the count line", () => {
  test.each([
    [0, "No valid URLs detected"],
    [1, "1 valid URL(s) detected"],
    [12, "12 valid URL(s) detected"],
  ])("%i URLs read '%s'", (count, line) => {
    expect(detectedUrlsLine(count)).toBe(line);
  });
});

describe("splitting a long paste into steps", () => {
  test("keeps every URL in order, at most the step size in each", () => {
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunk([], 5)).toEqual([]);
  });
});

describe("what the box keeps after a scrape", () => {
  const result = (url: string, outcome: ScrapeOutcome) => ({ url, outcome });
  test.each([
    ["nothing is kept when every URL got in", [result("https://a.example/1", "inserted"), result("https://b.example/2", "duplicate")], [], []],
    [
      "stored, duplicate and rejected URLs go, failed ones stay in their order",
      [
        result("https://a.example/1", "failed"),
        result("https://b.example/2", "inserted"),
        result("https://c.example/3", "previously_rejected"),
        result("https://d.example/4", "failed"),
      ],
      [],
      ["https://a.example/1", "https://d.example/4"],
    ],
    [
      "URLs a broken-off run never tried stay after the failed ones",
      [result("https://a.example/1", "failed"), result("https://b.example/2", "inserted")],
      ["https://e.example/5"],
      ["https://a.example/1", "https://e.example/5"],
    ],
  ])("%s", (_name, results, untried, kept) => {
    expect(urlsToRetry(results, untried)).toEqual(kept);
  });

  test("the line under the box says how many were kept and why", () => {
    expect(keptUrlsLine(2)).toBe("2 URL(s) could not be scraped and are left in the box to try again.");
  });
});
