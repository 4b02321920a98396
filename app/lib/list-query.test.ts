import { describe, expect, test } from "vitest";
import { STORY_LIST } from "~/app/components/admin/stories/stories-toolbar";
import { SOURCE_LIST } from "~/app/components/admin/sources/source-list-query";

// The admin lists' filters are read from the address in one place; each list states them once.

describe("the story list's address", () => {
  test.each([
    ["", { status: "all", search: "", categoryId: null, sourceId: null, sort: "auto", page: 1 }],
    ["?status=pending&q=%20%20goat%20&category=3&source=none&sort=source&page=2", { status: "pending", search: "goat", categoryId: 3, sourceId: "none", sort: "source", page: 2 }],
    ["?status=deleted&category=abc&source=-1&sort=random&page=0", { status: "all", search: "", categoryId: null, sourceId: null, sort: "auto", page: 1 }],
    ["?category=none&source=12&sort=oldest", { status: "all", search: "", categoryId: "none", sourceId: 12, sort: "oldest", page: 1 }],
    ["?category=1.5&page=2.5&source=9007199254740993", { status: "all", search: "", categoryId: null, sourceId: null, sort: "auto", page: 1 }],
    [`?q=${"x".repeat(600)}`, { status: "all", search: "x".repeat(500), categoryId: null, sourceId: null, sort: "auto", page: 1 }],
  ])("%j reads as %j", (search, query) => {
    expect(STORY_LIST.read(new URLSearchParams(search))).toEqual(query);
  });

  test.each([
    [{}, "?"],
    [{ status: "pending" }, "?status=pending"],
    [{ search: "a b", categoryId: "none" }, "?q=a+b&category=none"],
    [{ sourceId: 12, sort: "oldest", page: 3 }, "?source=12&sort=oldest&page=3"],
  ] as const)("%j is written as %j, defaults left out, and reads back the same", (change, search) => {
    const written = STORY_LIST.href(STORY_LIST.defaults, change);
    expect(written).toBe(search);
    expect(STORY_LIST.read(new URLSearchParams(written))).toEqual({ ...STORY_LIST.defaults, ...change });
  });

  test("a change of filter goes back to page 1; a change of page keeps the filters", () => {
    const onPage3 = { ...STORY_LIST.defaults, status: "pending" as const, page: 3 };
    expect(STORY_LIST.href(onPage3, { sort: "oldest" })).toBe("?status=pending&sort=oldest");
    expect(STORY_LIST.href(onPage3, { page: 4 })).toBe("?status=pending&page=4");
  });

  test("a select's value is read as its filter", () => {
    expect(STORY_LIST.field("categoryId", "")).toBeNull();
    expect(STORY_LIST.field("categoryId", "none")).toBe("none");
    expect(STORY_LIST.field("sourceId", "7")).toBe(7);
    expect(STORY_LIST.field("sort", "sideways")).toBe("auto");
  });
});

describe("the Sources tab's address", () => {
  test.each([
    ["", { q: "", troubled: false, window: "30", sort: "newest" }, "?"],
    ["?q=%20wire%20&trouble=1", { q: "wire", troubled: true, window: "30", sort: "newest" }, "?q=wire&trouble=1"],
    ["?trouble=yes&tab=watchlist", { q: "", troubled: false, window: "30", sort: "newest" }, "?"],
    ["?window=7&sort=worst-yield", { q: "", troubled: false, window: "7", sort: "worst-yield" }, "?window=7&sort=worst-yield"],
    ["?window=365&sort=random", { q: "", troubled: false, window: "30", sort: "newest" }, "?"],
  ] as const)("%j reads as %j and is written back as %j", (search, query, written) => {
    expect(SOURCE_LIST.read(new URLSearchParams(search))).toEqual(query);
    expect(SOURCE_LIST.href(query)).toBe(written);
  });
});
