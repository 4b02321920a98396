import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { type ArticleExtraction, extractArticle, extractCanonicalUrl, extractPageTitle } from "./extract-article";
import { parseMetaDate } from "./read-metadata";

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");

/** A golden file: the page's URL, the expected extraction (all but contentHtml), and what contentHtml must and must not contain. */
type Golden = {
  pageUrl: string;
  expected: Omit<ArticleExtraction, "contentHtml">;
  contentHtml: { contains: string[]; excludes: string[] } | null;
};

const cases = readdirSync(fixtures)
  .filter((file) => file.endsWith(".html"))
  .map((file) => file.replace(/\.html$/, ""));

function page(name: string): string {
  return readFileSync(path.join(fixtures, `${name}.html`), "utf8");
}

describe("extractArticle on fixture pages (golden files)", () => {
  test.each(cases)("%s matches its golden file", (name) => {
    const goldenPath = path.join(fixtures, `${name}.expected.json`);
    const golden = JSON.parse(readFileSync(goldenPath, "utf8")) as Golden;
    const { contentHtml, ...rest } = extractArticle(page(name), golden.pageUrl);
    if (process.env.UPDATE_GOLDEN === "1") {
      // Regenerates the expected fields; a human reviews the diff before committing it.
      writeFileSync(goldenPath, `${JSON.stringify({ ...golden, expected: rest }, null, 2)}\n`);
      return;
    }
    expect(rest).toEqual(golden.expected);
    if (golden.contentHtml === null) {
      expect(contentHtml).toBeNull();
    } else {
      for (const needle of golden.contentHtml.contains) expect(contentHtml).toContain(needle);
      for (const needle of golden.contentHtml.excludes) expect(contentHtml).not.toContain(needle);
    }
  });

  test("every fixture page has a golden file", () => {
    const goldens = readdirSync(fixtures).filter((file) => file.endsWith(".expected.json"));
    expect(goldens.map((file) => file.replace(/\.expected\.json$/, "")).sort()).toEqual([...cases].sort());
  });
});
