import { describe, expect, test } from "vitest";
import { compileFilter, compilePattern, passesFilter } from "./patterns";

const matches = (pattern: string, url: string) => {
  const checked = compilePattern(pattern);
  if (!checked.ok) throw new Error(checked.message);
  return checked.pattern.matches(url);
};

describe("a pattern", () => {
  test.each([
    ["/news/", "https://weird.example/news/frog-mayor", true],
    ["/news/", "https://weird.example/sport/news", false],
    ["/NEWS/", "https://weird.example/news/frog", true],
    ["/news/*/2026/", "https://weird.example/news/animals/2026/frog", true],
    ["/news/*/2026/", "https://weird.example/news/2026/frog", false],
    ["*.html", "https://weird.example/a/b.html", true],
    ["?page=", "https://weird.example/list?page=2", true],
    ["/\\/story\\/\\d+$/", "https://weird.example/story/123", true],
    ["/\\/story\\/\\d+$/", "https://weird.example/story/123/comments", false],
    ["/\\/Story\\//i", "https://weird.example/story/1", true],
    ["/\\/Story\\//", "https://weird.example/story/1", false],
  ])("%s against %s: %s", (pattern, url, expected) => {
    expect(matches(pattern, url)).toBe(expected);
  });

  test("a broken regular expression is refused with the reason", () => {
    const checked = compilePattern("/(unclosed\\d/");
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.message).toMatch(/not a valid regular expression/);
  });

  test("an empty or overlong pattern is refused", () => {
    expect(compilePattern("  ").ok).toBe(false);
    expect(compilePattern("a".repeat(501)).ok).toBe(false);
  });
});

describe("the allow and deny lists", () => {
  const filter = (allow: string[], deny: string[]) => {
    const compiled = compileFilter(allow, deny);
    if (!compiled.ok) throw new Error(compiled.messages.join("; "));
    return compiled.filter;
  };

  test("without lists every URL passes", () => {
    expect(passesFilter(filter([], []), "https://weird.example/anything")).toBe(true);
  });

  test("with an allowlist only matching URLs pass", () => {
    const f = filter(["/news/"], []);
    expect(passesFilter(f, "https://weird.example/news/a")).toBe(true);
    expect(passesFilter(f, "https://weird.example/about")).toBe(false);
  });

  test("deny wins over allow", () => {
    const f = filter(["/news/"], ["/news/sponsored/"]);
    expect(passesFilter(f, "https://weird.example/news/sponsored/x")).toBe(false);
    expect(passesFilter(f, "https://weird.example/news/frog")).toBe(true);
  });

  test("every unusable pattern is reported at once", () => {
    const compiled = compileFilter(["/(a/"], ["", "/[b/"]);
    expect(compiled.ok).toBe(false);
    if (!compiled.ok) expect(compiled.messages).toHaveLength(3);
  });
});
