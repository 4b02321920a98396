import { describe, expect, test } from "vitest";
import { discoveryProgressLine, discoveryToast } from "./discovery-messages";

const report = (overrides: Record<string, unknown> = {}) => ({
  source_id: 7,
  name: "Odd Planet",
  found: 4,
  queued: 3,
  skipped_robots: 1,
  skipped_known: 0,
  skipped_filtered: 0,
  errors: [],
  failed: false,
  ...overrides,
});
const finished = (sources: unknown[]) => ({ status: "succeeded" as const, error: null, result: { sources_processed: sources.length, sources } });

describe("the toast of a finished discovery", () => {
  test("names what was found, queued and skipped for this source", () => {
    expect(discoveryToast(finished([report({ source_id: 3, found: 90 }), report()]), 7)).toEqual({
      tone: "success",
      title: "Discovery complete",
      description: "Found 4 URLs, queued 3 new, skipped 1 by robots.txt, 0 already known.",
    });
  });

  test.each([
    ["one URL is one", { found: 1, queued: 0, skipped_robots: 0, skipped_known: 1 }, "Found 1 URL, queued 0 new, skipped 0 by robots.txt, 1 already known."],
    [
      "problems that did not stop the run are counted, with the first",
      { errors: ["Sitemap https://odd.example/a.xml: HTTP 404", "Sitemap https://odd.example/b.xml: HTTP 500"] },
      "Found 4 URLs, queued 3 new, skipped 1 by robots.txt, 0 already known. 2 problems, the first: Sitemap https://odd.example/a.xml: HTTP 404",
    ],
    ["counts that are not numbers read as 0", { found: "4", queued: null }, "Found 0 URLs, queued 0 new, skipped 1 by robots.txt, 0 already known."],
  ])("%s", (_name, overrides, description) => {
    expect(discoveryToast(finished([report(overrides)]), 7)).toMatchObject({ tone: "success", description });
  });

  test.each([
    ["a run that read nothing gives its first error", finished([report({ failed: true, errors: ["robots.txt: HTTP 503: nothing fetched from https://odd.example this cycle."] })]), "robots.txt: HTTP 503: nothing fetched from https://odd.example this cycle."],
    ["a failed run without errors says so", finished([report({ failed: true, errors: [] })]), "Nothing could be read from the site."],
    ["a failed job gives the job's error", { status: "failed" as const, error: "boom", result: null }, "boom"],
    ["a cancelled job", { status: "cancelled" as const, error: null, result: null }, "The discovery was cancelled."],
    ["a job that skipped the source (another run holds it)", finished([]), "This source was not discovered: another discovery of it is still running. Try again when it has finished."],
    ["a job that could not be read to its end", null, "The discovery could not be followed to its end. Reload the page to see the source's last run."],
  ])("fails: %s", (_name, job, description) => {
    expect(discoveryToast(job, 7)).toEqual({ tone: "error", title: "Discovery failed", description });
  });
});

test.each([
  ["before the first answer", null, "Waiting to start..."],
  ["while queued", { status: "queued" as const }, "Waiting to start..."],
  ["while running", { status: "running" as const }, "Reading robots.txt, sitemaps and start pages..."],
])("the progress line %s", (_name, job, line) => {
  expect(discoveryProgressLine(job)).toBe(line);
});
