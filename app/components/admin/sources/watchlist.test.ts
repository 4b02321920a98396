import { describe, expect, test } from "vitest";
import { addToWatchlist, parseWatchlist, readWatchlistInput, removeFromWatchlist, WATCHLIST_MESSAGES, type WatchlistItem } from "./watchlist";

const item = (id: string, url: string, title = url): WatchlistItem => ({ id, url, title, addedAt: "2025-03-04T14:05:00.000Z" });

describe("reading what the editor typed into the watchlist box", () => {
  test.each([
    ["an empty box", "", { ok: false, error: "Please enter a URL" }],
    ["only spaces", "   ", { ok: false, error: "Please enter a URL" }],
    ["a full URL", "https://odd.example/news", { ok: true, url: "https://odd.example/news" }],
    ["a URL with spaces around it", "  http://odd.example  ", { ok: true, url: "http://odd.example/" }],
    ["a bare host gets https://", "odd.example", { ok: true, url: "https://odd.example/" }],
    ["a host and path gets https://", "www.odd.example/weird?page=2", { ok: true, url: "https://www.odd.example/weird?page=2" }],
    ["a host with a port gets https://", "odd.example:8080/x", { ok: true, url: "https://odd.example:8080/x" }],
    ["words with spaces", "not a url", { ok: false, error: "Please enter a valid URL" }],
    ["a single word", "oddwire", { ok: false, error: "Please enter a valid URL" }],
    ["another scheme", "ftp://odd.example/file", { ok: false, error: "Please enter a valid URL" }],
    ["a mail address that would parse as credentials", "mailto:x@odd.example", { ok: false, error: "Please enter a valid URL" }],
    ["a script URL", "javascript://alert(1)", { ok: false, error: "Please enter a valid URL" }],
  ])("%s", (_name, input, expected) => {
    expect(readWatchlistInput(input)).toEqual(expected);
  });
});

describe("reading the stored watchlist", () => {
  const good = item("a", "https://odd.example/", "Odd Example");
  test.each([
    ["nothing stored", null, []],
    ["not JSON", "{oops", []],
    ["JSON that is not a list", '{"id":"a"}', []],
    ["a good list", JSON.stringify([good]), [good]],
    ["entries that are not objects are dropped", JSON.stringify([1, "x", null, good]), [good]],
    ["entries without id or with a non-web URL are dropped", JSON.stringify([{ url: "https://a.example" }, { id: "j", url: "javascript:alert(1)" }, good]), [good]],
    ["a missing title falls back to the URL", JSON.stringify([{ id: "b", url: "https://b.example/", addedAt: "2025-01-01T00:00:00Z" }]), [{ id: "b", url: "https://b.example/", title: "https://b.example/", addedAt: "2025-01-01T00:00:00Z" }]],
    ["a broken date is blanked", JSON.stringify([{ ...good, addedAt: "yesterday" }]), [{ ...good, addedAt: "" }]],
    ["a repeated id is kept once", JSON.stringify([good, { ...good, title: "again" }]), [good]],
  ])("%s", (_name, raw, expected) => {
    expect(parseWatchlist(raw)).toEqual(expected);
  });
});

describe("adding to and removing from the watchlist", () => {
  const list = [item("a", "https://odd.example/news")];

  test("a new website goes to the top of the list", () => {
    expect(addToWatchlist(list, item("b", "https://other.example/"))).toEqual({ ok: true, list: [item("b", "https://other.example/"), ...list] });
  });

  test.each([
    ["the same URL", "https://odd.example/news"],
    ["with a trailing slash", "https://odd.example/news/"],
    ["with www.", "https://www.odd.example/news"],
    ["over http", "http://odd.example/news"],
  ])("a website already watched is refused: %s", (_name, url) => {
    expect(addToWatchlist(list, item("b", url))).toEqual({ ok: false, error: WATCHLIST_MESSAGES.duplicate });
  });

  test("another page of the same site is a different entry", () => {
    expect(addToWatchlist(list, item("b", "https://odd.example/sport")).ok).toBe(true);
  });

  test("removing takes out only the chosen item", () => {
    const two = [item("a", "https://a.example/"), item("b", "https://b.example/")];
    expect(removeFromWatchlist(two, "a")).toEqual([two[1]]);
    expect(removeFromWatchlist(two, "missing")).toEqual(two);
  });
});
