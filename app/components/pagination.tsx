import { Link } from "react-router";

/**
 * Previous/next links and the current position, keeping the other query parameters. Lists newest
 * first call them Newer and Older. With `cursors` (of the first and last rows shown), the links carry
 * them as `before` and `after`, so the next page is read from where this one ends; page 1 needs none.
 */
export function Pagination({
  page,
  pageCount,
  search,
  labels = { previous: "← Newer", next: "Older →" },
  cursors,
}: {
  page: number;
  pageCount: number;
  search?: URLSearchParams;
  labels?: { previous: string; next: string };
  cursors?: { previous: string | null; next: string | null };
}) {
  if (pageCount <= 1) return null;
  const href = (n: number, cursorParam: "before" | "after", cursor: string | null | undefined) => {
    const params = new URLSearchParams(search);
    if (n === 1) params.delete("page");
    else params.set("page", String(n));
    if (cursors) {
      // A cursor belongs to the page it came from; page 1 is always the newest and needs none.
      params.delete("before");
      params.delete("after");
      if (cursor && n > 1) params.set(cursorParam, cursor);
    }
    const query = params.toString();
    return query ? `?${query}` : "?";
  };
  const button = "rounded-full border-2 border-ink bg-white px-4 py-2 font-bold shadow-[3px_3px_0_0_var(--color-ink)] hover:bg-acid";
  return (
    <nav aria-label="Pages" className="mt-10 flex items-center justify-center gap-4">
      {page > 1 ? (
        <Link to={href(page - 1, "before", cursors?.previous)} className={button} rel="prev">
          {labels.previous}
        </Link>
      ) : null}
      <span className="text-sm font-semibold text-ink/70">
        Page {page} of {pageCount}
      </span>
      {page < pageCount ? (
        <Link to={href(page + 1, "after", cursors?.next)} className={button} rel="next">
          {labels.next}
        </Link>
      ) : null}
    </nav>
  );
}
