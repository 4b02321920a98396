import { data, isRouteErrorResponse, Link } from "react-router";
import { getStoryPage } from "~/domain/public/public-site";
import { NotFound } from "~/app/components/not-found";
import { Notice } from "~/app/components/states";
import { SourceLink, StoryGrid } from "~/app/components/story-card";
import { LOGO_URL, StoryImage } from "~/app/components/story-image";
import { formatDate } from "~/app/lib/format";
import { siteUrlFrom } from "~/app/lib/meta";
import type { PublicStory } from "~/domain/stories/public-story";
import { storySocialImage } from "~/lib/story-image";
import type { Route } from "./+types/story";

// The story's picture fills the 48rem column (less its border), or the screen's width.
const STORY_IMAGE_SIZES = "(min-width: 800px) 760px, calc(100vw - 40px)";

export function meta({ data: page, matches }: Route.MetaArgs): Route.MetaDescriptors {
  if (!page) return [{ title: "Page not found | Oddwire" }, { name: "robots", content: "noindex" }];
  const siteUrl = siteUrlFrom(matches);
  const { story } = page;
  const url = `${siteUrl}/story/${story.slug}`;
  // Social networks and search engines get the 1200 px JPEG variant; without a picture, or with one
  // under 600 px wide, the story's share card.
  const shared = storySocialImage({ ...story, imageWidth: page.imageWidth }, siteUrl);
  const image = shared.url;
  const description = story.summary ?? story.title;
  const jsonLd = {
    "@context": "https://schema.org",
    "@type": "NewsArticle",
    headline: story.title,
    description,
    image: [image],
    datePublished: story.publishDate,
    url,
    mainEntityOfPage: url,
    articleSection: story.category,
    isBasedOn: story.sourceUrl === "#" ? undefined : story.sourceUrl,
    publisher: { "@type": "Organization", name: "Oddwire", logo: { "@type": "ImageObject", url: `${siteUrl}${LOGO_URL}` } },
  };
  return [
    { title: `${story.title} | Oddwire` },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: "article" },
    { property: "og:site_name", content: "Oddwire" },
    { property: "og:url", content: url },
    { property: "og:title", content: story.title },
    { property: "og:description", content: description },
    { property: "og:image", content: image },
    { property: "og:image:width", content: String(shared.width) },
    { property: "og:image:height", content: String(shared.height) },
    { property: "og:image:alt", content: story.title },
    ...(story.publishDate ? [{ property: "article:published_time", content: story.publishDate }] : []),
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: story.title },
    { name: "twitter:description", content: description },
    { name: "twitter:image", content: image },
    { "script:ld+json": jsonLd },
  ];
}

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const page = await getStoryPage(context.publicRepos, params.slug);
  if (!page) {
    context.logger.warn({ path: new URL(request.url).pathname }, "page not found");
    throw data(null, { status: 404 });
  }
  return { story: page.story, related: page.related, imageWidth: page.imageWidth };
}

export default function Story({ loaderData }: Route.ComponentProps) {
  const { story, related } = loaderData;
  return (
    <>
      <article className="mx-auto max-w-3xl">
        <p className="text-sm font-bold tracking-widest text-ufo uppercase">
          {story.categorySlug ? (
            <Link to={`/category/${story.categorySlug}`} className="rounded hover:underline">
              {story.category}
            </Link>
          ) : (
            story.category
          )}
        </p>
        <h1 className="mt-2 font-display text-4xl leading-tight font-extrabold tracking-tight sm:text-5xl">{story.title}</h1>
        <p className="mt-3 text-sm text-ink/70">
          <time dateTime={story.publishDate ?? undefined}>{formatDate(story.publishDate)}</time>
          <SourceCredit story={story} />
        </p>
        <div className="mt-6 overflow-hidden rounded-3xl border-4 border-ink shadow-[8px_8px_0_0_var(--color-ufo)]">
          <StoryImage story={story} alt={story.title} sizes={STORY_IMAGE_SIZES} loading="priority" className="aspect-[16/9] w-full" />
        </div>
        {story.summary ? <p className="mt-8 text-xl leading-relaxed">{story.summary}</p> : null}
        <SourceLink
          story={story}
          label="Read Full Story"
          className="mt-8 inline-flex items-center gap-2 rounded-full bg-ink px-6 py-3 text-lg font-bold text-acid hover:bg-ufo hover:text-white"
          iconClassName="h-5 w-5"
        />
      </article>
      {related.length > 0 ? (
        <section aria-labelledby="more-stories" className="mt-16">
          <h2 id="more-stories" className="font-display text-3xl font-extrabold">
            More from {story.category}
          </h2>
          <StoryGrid stories={related} eager={0} heading="h3" uniform />
        </section>
      ) : null}
    </>
  );
}

// Who reported the story first, and when they say they did: the source's own date, not ours.
function SourceCredit({ story }: { story: PublicStory }) {
  const reporter = story.sourceName ?? hostOf(story.sourceUrl);
  if (!story.sourcePublishedAt) return story.sourceName ? <> · via {story.sourceName}</> : null;
  return (
    <>
      {" · "}
      {reporter ? `Reported by ${reporter} ` : "Reported "}
      {/* The date stays with its "on" when the line wraps on a phone. */}
      <span className="whitespace-nowrap">
        on <time dateTime={story.sourcePublishedAt}>{formatDate(story.sourcePublishedAt)}</time>
      </span>
    </>
  );
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.replace(/^www\./, "") || null;
  } catch {
    return null;
  }
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  return <Notice title="Error loading stories" tone="error" heading="h1" />;
}
