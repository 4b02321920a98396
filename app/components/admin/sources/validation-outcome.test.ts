import { describe, expect, test } from "vitest";
import type { RssValidationResult } from "~/domain/ingestion/validate-feed";
import { validationOutcome } from "./validation-outcome";

const valid: RssValidationResult = {
  ok: true,
  type: "rss",
  code: null,
  error: null,
  meta: { contentType: "application/rss+xml", bytes: 1234 },
  info: { title: "Odd Feed", description: "Weird things", itemsCount: 7, lastUpdated: "2025-03-04T14:05:00.000Z" },
  sample: [{ title: "A goat", link: "https://odd.example/goat", pubDate: "2025-03-04T14:05:00.000Z" }],
};
const invalid = (error: string | null): RssValidationResult => ({ ...valid, ok: false, type: null, code: "NOT_A_FEED", error, sample: [] });

describe("what the validator shows for each answer", () => {
  test.each([
    ["a valid feed", { kind: "ok", status: 200, body: valid }, "success", "Valid RSS Feed", "Found 7 items in the feed.", null],
    ["a page that is not a feed", { kind: "ok", status: 200, body: invalid("Not an RSS, Atom or JSON feed") }, "error", "Invalid RSS Feed", "Not an RSS, Atom or JSON feed", "NOT_A_FEED"],
    ["an invalid feed without a reason", { kind: "ok", status: 200, body: invalid(null) }, "error", "Invalid RSS Feed", "The URL does not contain a valid RSS feed", "NOT_A_FEED"],
    ["our endpoint refusing with a message", { kind: "error", status: 400, message: "The URL is too long." }, "error", "Validation Failed", "The URL is too long.", "FETCH_ERROR"],
    ["our endpoint failing without a message", { kind: "error", status: 502, message: null }, "error", "Validation Failed", "Failed to validate RSS feed", "FETCH_ERROR"],
    ["no answer at all", { kind: "network", message: "Failed to fetch" }, "error", "Validation Error", "Network error while validating RSS feed", "NETWORK_ERROR"],
  ] as const)("%s", (_name, answer, tone, title, description, code) => {
    const { result, toast } = validationOutcome(answer);
    expect(toast).toEqual({ tone, title, description });
    expect(result.code).toBe(code);
  });

  test("a failed call still gives a complete card, with the message as its error", () => {
    const { result } = validationOutcome({ kind: "network", message: "Failed to fetch" });
    expect(result).toMatchObject({ ok: false, error: "Network error while validating RSS feed", meta: { bytes: 0 }, info: { itemsCount: 0 }, sample: [] });
  });
});
