import { data, useSearchParams } from "react-router";
import { getCategoryPage, parsePage } from "~/domain/public/public-site";
import { Pagination } from "~/app/components/pagination";
import { Notice } from "~/app/components/states";
import { StoryGrid } from "~/app/components/story-card";
import { pageMeta, siteUrlFrom } from "~/app/lib/meta";
import type { Route } from "./+types/category";

export function meta({ data: page, matches }: Route.MetaArgs): Route.MetaDescriptors {
  const title = page ? `${page.title} | Oddwire` : "Category | Oddwire";
  return pageMeta({ title, description: `Weird ${page?.title ?? ""} news on Oddwire.`, siteUrl: siteUrlFrom(matches), path: `/category/${page?.slug ?? ""}` });
}

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const query = new URL(request.url).searchParams;
  const page = await getCategoryPage(context.publicRepos, params.slug, parsePage(query.get("page")), {
    after: query.get("after"),
    before: query.get("before"),
  });
  if (!page.found) context.logger.info({ path: new URL(request.url).pathname }, "unknown category");
  // An unknown category shows the spec's page, but tells crawlers it is not there.
  return data(page, { status: page.found ? 200 : 404 });
}

export default function Category({ loaderData }: Route.ComponentProps) {
  const { title, stories, cursors } = loaderData;
  const [search] = useSearchParams();
  return (
    <>
      <h1 className="font-display text-4xl font-extrabold tracking-tight sm:text-5xl">{title}</h1>
      {stories.total > 0 ? (
        <p className="mt-2 text-ink/70">
          {stories.total} {stories.total === 1 ? "story" : "stories"}
        </p>
      ) : null}
      {stories.items.length === 0 ? (
        <Notice title="No stories in this category yet" heading="h2">
          <p>Check back soon for updates!</p>
        </Notice>
      ) : (
        <>
          <StoryGrid stories={stories.items} label={`${title} stories`} eager={3} />
          <Pagination
            page={stories.page}
            pageCount={stories.pageCount}
            search={search}
            cursors={{ previous: cursors.newer, next: cursors.older }}
          />
        </>
      )}
    </>
  );
}

export function ErrorBoundary() {
  return <Notice title="Error loading stories" tone="error" heading="h1" />;
}
