import { formatCount } from "~/app/lib/format";
import { data, Form, isRouteErrorResponse, Link, useSearchParams } from "react-router";
import { parsePage, SEARCH_MAX_LENGTH, searchStories } from "~/domain/public/public-site";
import { Pagination } from "~/app/components/pagination";
import { Notice } from "~/app/components/states";
import { StoryGrid } from "~/app/components/story-card";
import { pageMeta, siteUrlFrom } from "~/app/lib/meta";
import type { Route } from "./+types/search";

export function meta({ data: result, matches }: Route.MetaArgs): Route.MetaDescriptors {
  return [
    ...pageMeta({ title: result?.query ? `"${result.query}" | Oddwire search` : "Search | Oddwire", siteUrl: siteUrlFrom(matches), path: "/search" }),
    { name: "robots", content: "noindex" },
  ];
}

// A refused search tells the client when to come back (Retry-After) and is never cached.
export function headers({ parentHeaders, errorHeaders }: Route.HeadersArgs) {
  return errorHeaders ?? parentHeaders;
}

/** What a client that searches too often reads, and how long to wait. */
export function tooManySearches(retryAfterSeconds: number) {
  return {
    message: `Too many searches from your address. Please wait ${retryAfterSeconds} second${retryAfterSeconds === 1 ? "" : "s"} and try again.`,
  };
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  if ((params.get("q") ?? "").trim() !== "") {
    const allowed = await context.rateLimits.search.take(context.clientAddress);
    if (!allowed.ok) {
      throw data(tooManySearches(allowed.retryAfterSeconds), {
        status: 429,
        headers: { "Retry-After": String(allowed.retryAfterSeconds), "Cache-Control": "no-store" },
      });
    }
  }
  try {
    return await searchStories(context.repos, params.get("q"), parsePage(params.get("page")));
  } catch (error) {
    context.logger.error({ err: error }, "search failed");
    throw new Error(`Search failed: ${(error as Error).message}`, { cause: error });
  }
}

function SearchForm({ query }: { query: string }) {
  return (
    <Form method="get" action="/search" role="search" className="flex max-w-xl gap-2">
      <label htmlFor="search-page-input" className="sr-only">
        Search weird news
      </label>
      <input
        id="search-page-input"
        name="q"
        type="search"
        defaultValue={query}
        maxLength={SEARCH_MAX_LENGTH}
        placeholder="Search weird news..."
        className="min-w-0 flex-1 rounded-full border-2 border-ink bg-white px-4 py-2"
      />
      <button type="submit" className="rounded-full bg-ink px-5 py-2 font-bold text-paper hover:bg-ufo">
        Search
      </button>
    </Form>
  );
}

export default function Search({ loaderData }: Route.ComponentProps) {
  const { query, results, didYouMean } = loaderData;
  const [search] = useSearchParams();
  if (query === "") {
    return (
      <>
        <SearchForm query="" />
        <Notice title="No search query provided" heading="h1">
          <p>Please enter a search term to find stories.</p>
        </Notice>
      </>
    );
  }
  return (
    <>
      <SearchForm query={query} />
      {results.total === 0 ? (
        <Notice title={`No stories found for "${query}"`} heading="h1">
          <p>Try searching with different keywords or check your spelling.</p>
          {didYouMean ? (
            <p className="mt-3 text-lg">
              Did you mean{" "}
              <Link to={`/search?q=${encodeURIComponent(didYouMean)}`} className="font-bold text-ufo underline">
                {didYouMean}
              </Link>
              ?
            </p>
          ) : null}
        </Notice>
      ) : (
        <>
          <h1 className="mt-8 font-display text-3xl font-extrabold">
            Found {results.totalIsCapped ? `${formatCount(results.total)}+` : results.total}{" "}
            {results.total === 1 && !results.totalIsCapped ? "story" : "stories"} for &quot;{query}&quot;
          </h1>
          <StoryGrid stories={results.items} label="Search results" />
          <Pagination page={results.page} pageCount={results.pageCount} search={search} />
        </>
      )}
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <Notice title="Search Error" tone="error" heading="h1">
      <p>Something went wrong while searching. Please try again.</p>
      {error instanceof Error ? <p className="mt-2 font-mono text-sm">{error.message}</p> : null}
      {isRouteErrorResponse(error) && typeof (error.data as { message?: unknown } | null)?.message === "string" ? (
        <p className="mt-2 font-mono text-sm">{(error.data as { message: string }).message}</p>
      ) : null}
    </Notice>
  );
}
