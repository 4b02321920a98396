import { Link } from "react-router";
import { getHome, type CategoryCard } from "~/domain/public/public-site";
import type { PublicStory } from "~/domain/stories/public-story";
import { ExternalIcon } from "~/app/components/icons";
import { Notice } from "~/app/components/states";
import { WeirdBadge } from "~/app/components/story-card";
import { StoryImage } from "~/app/components/story-image";
import { formatDate } from "~/app/lib/format";
import { pageMeta, siteUrlFrom } from "~/app/lib/meta";
import type { Route } from "./+types/home";

export function meta({ matches }: Route.MetaArgs): Route.MetaDescriptors {
  return pageMeta({
    title: "Oddwire: weird news from around the world",
    description: "The strangest true stories of the day, each linked to its original source.",
    siteUrl: siteUrlFrom(matches),
    path: "/",
  });
}

export async function loader({ context }: Route.LoaderArgs) {
  return getHome(context.repos);
}

function Featured({ story }: { story: PublicStory }) {
  return (
    <article className="mt-6 grid overflow-hidden rounded-3xl border-4 border-ink bg-white shadow-[8px_8px_0_0_var(--color-ufo)] md:grid-cols-[3fr_2fr]">
      <div className="aspect-[16/10] border-b-4 border-ink md:aspect-auto md:border-r-4 md:border-b-0">
        <StoryImage src={story.imageUrl} alt={story.title} className="h-full w-full" />
      </div>
      <div className="flex flex-col gap-3 p-6 md:p-8">
        <p className="text-xs font-bold tracking-widest text-ufo uppercase">{story.category}</p>
        <h3 className="font-display text-3xl leading-tight font-extrabold md:text-4xl">
          <Link to={`/story/${story.slug}`} className="rounded hover:underline">
            {story.title}
          </Link>
        </h3>
        {story.summary ? <p className="text-lg text-ink/80">{story.summary}</p> : null}
        <time dateTime={story.publishDate ?? undefined} className="text-sm text-ink/70">
          {formatDate(story.publishDate)}
        </time>
        <a
          href={story.sourceUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="mt-auto inline-flex w-fit items-center gap-2 rounded-full bg-ink px-5 py-2.5 font-bold text-acid hover:bg-ufo hover:text-white"
        >
          Read Full Story <ExternalIcon className="h-4 w-4" />
          <span className="sr-only">(opens in a new tab)</span>
        </a>
      </div>
    </article>
  );
}

function CategoryCardView({ card }: { card: CategoryCard }) {
  const { sample } = card;
  return (
    <article className="group flex flex-col overflow-hidden rounded-2xl border-2 border-ink bg-white shadow-[4px_4px_0_0_var(--color-ink)]">
      <div className="flex items-baseline justify-between gap-2 border-b-2 border-ink bg-acid px-4 py-3">
        <h3 className="font-display text-xl font-extrabold">
          <Link to={`/category/${card.slug}`} className="rounded hover:underline">
            {card.name}
          </Link>
        </h3>
        <span className="text-sm font-bold whitespace-nowrap">
          {card.storyCount} {card.storyCount === 1 ? "story" : "stories"}
        </span>
      </div>
      <div className="relative aspect-[16/9] overflow-hidden border-b-2 border-ink">
        <StoryImage src={sample.imageUrl} alt={sample.title} className="h-full w-full" />
        <WeirdBadge />
      </div>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <h4 className="font-display text-lg leading-tight font-bold">
          <Link to={`/story/${sample.slug}`} className="rounded hover:underline">
            {sample.title}
          </Link>
        </h4>
        {sample.summary ? <p className="line-clamp-3 text-sm text-ink/75">{sample.summary}</p> : null}
        <div className="mt-auto flex items-center justify-between gap-2 pt-3 text-sm">
          <time dateTime={sample.publishDate ?? undefined} className="text-ink/70">
            {formatDate(sample.publishDate)}
          </time>
          <a
            href={sample.sourceUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex items-center gap-1 rounded-full bg-ink px-3 py-1 font-bold text-acid hover:bg-ufo hover:text-white"
          >
            Read Story <ExternalIcon className="h-3.5 w-3.5" />
            <span className="sr-only"> about {sample.title} (opens in a new tab)</span>
          </a>
        </div>
      </div>
    </article>
  );
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { featured, cards } = loaderData;
  if (!featured && cards.length === 0) {
    return (
      <Notice title="No stories available yet" heading="h1">
        <p>Check back soon for weird news updates!</p>
      </Notice>
    );
  }
  return (
    <>
      <h1 className="font-display text-4xl font-extrabold tracking-tight sm:text-5xl">
        Today&apos;s <span className="-rotate-1 inline-block bg-acid px-2">weird</span> news
      </h1>
      {featured ? <Featured story={featured} /> : null}
      {cards.length > 0 ? (
        <>
          <h2 className="mt-14 font-display text-3xl font-extrabold">Browse the strangeness</h2>
          <div className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {cards.map((card) => (
              <CategoryCardView key={card.slug} card={card} />
            ))}
          </div>
        </>
      ) : null}
    </>
  );
}

export function ErrorBoundary() {
  return (
    <Notice title="Error loading stories" tone="error" heading="h1">
      <p>Please try refreshing the page</p>
    </Notice>
  );
}
