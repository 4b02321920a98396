import { Link } from "react-router";

/** Previous/next links and the current position, keeping the other query parameters. Lists newest first call them Newer and Older. */
export function Pagination({
  page,
  pageCount,
  search,
  labels = { previous: "← Newer", next: "Older →" },
}: {
  page: number;
  pageCount: number;
  search?: URLSearchParams;
  labels?: { previous: string; next: string };
}) {
  if (pageCount <= 1) return null;
  const href = (n: number) => {
    const params = new URLSearchParams(search);
    if (n === 1) params.delete("page");
    else params.set("page", String(n));
    const query = params.toString();
    return query ? `?${query}` : "?";
  };
  const button = "rounded-full border-2 border-ink bg-white px-4 py-2 font-bold shadow-[3px_3px_0_0_var(--color-ink)] hover:bg-acid";
  return (
    <nav aria-label="Pages" className="mt-10 flex items-center justify-center gap-4">
      {page > 1 ? (
        <Link to={href(page - 1)} className={button} rel="prev">
          {labels.previous}
        </Link>
      ) : null}
      <span className="text-sm font-semibold text-ink/70">
        Page {page} of {pageCount}
      </span>
      {page < pageCount ? (
        <Link to={href(page + 1)} className={button} rel="next">
          {labels.next}
        </Link>
      ) : null}
    </nav>
  );
}
