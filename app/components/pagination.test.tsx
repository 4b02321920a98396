import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { expect, test } from "vitest";
import { Pagination } from "./pagination";

/** The Newer and Older links' addresses, and the position shown. */
function linksOf(props: Parameters<typeof Pagination>[0]) {
  const html = renderToStaticMarkup(
    <MemoryRouter>
      <Pagination {...props} />
    </MemoryRouter>,
  );
  const href = (rel: string) => {
    const link = html.match(/<a [^>]*>/g)?.find((tag) => tag.includes(`rel="${rel}"`));
    return link?.match(/href="([^"]*)"/)?.[1]?.replace(/&amp;/g, "&") ?? null;
  };
  return { newer: href("prev"), older: href("next"), position: html.match(/Page \d+ of \d+/)?.[0] };
}

test("with cursors, Older carries the last story's as 'after' and Newer the first story's as 'before', beside the page number", () => {
  const search = new URLSearchParams("page=3&after=old.1&theme=dark");
  expect(linksOf({ page: 3, pageCount: 9, search, cursors: { previous: "first.a", next: "last.b" } })).toEqual({
    newer: "/?page=2&theme=dark&before=first.a",
    older: "/?page=4&theme=dark&after=last.b",
    position: "Page 3 of 9",
  });
});

test("Newer to page 1 carries no cursor: page 1 is always the newest stories", () => {
  const search = new URLSearchParams("page=2&before=first.a");
  expect(linksOf({ page: 2, pageCount: 9, search, cursors: { previous: "first.c", next: "last.d" } }).newer).toBe("/");
});

test("without cursors (the admin list, search) the links change the page number only, as before", () => {
  const search = new URLSearchParams("q=goat&page=2&after=kept");
  expect(linksOf({ page: 2, pageCount: 3, search })).toEqual({
    newer: "/?q=goat&after=kept",
    older: "/?q=goat&page=3&after=kept",
    position: "Page 2 of 3",
  });
});
