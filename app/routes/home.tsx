import { Link } from "react-router";
import { getHome } from "~/domain/public/public-site";
import type { PublicStory } from "~/domain/stories/public-story";
import { Notice } from "~/app/components/states";
import { CategorySampleCard, SourceLink } from "~/app/components/story-card";
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
  return getHome(context.publicRepos);
}

// The featured picture: three fifths of the 70rem row from 768 px, the whole width below.
const FEATURED_SIZES = "(min-width: 1152px) 667px, (min-width: 768px) 60vw, calc(100vw - 40px)";

function Featured({ story }: { story: PublicStory }) {
  return (
    <article className="mt-6 grid overflow-hidden rounded-3xl border-4 border-ink bg-white shadow-[8px_8px_0_0_var(--color-ufo)] md:grid-cols-[3fr_2fr]">
      <div className="aspect-[16/9] border-b-4 border-ink md:aspect-auto md:border-r-4 md:border-b-0">
        <StoryImage story={story} alt={story.title} sizes={FEATURED_SIZES} loading="priority" className="h-full w-full" />
      </div>
      <div className="flex flex-col gap-3 p-6 md:p-8">
        <p className="text-xs font-bold tracking-widest text-ufo uppercase">{story.category}</p>
        <h2 className="font-display text-3xl leading-tight font-extrabold md:text-4xl">
          <Link to={`/story/${story.slug}`} className="rounded hover:underline">
            {story.title}
          </Link>
        </h2>
        {story.summary ? <p className="text-lg text-ink/80">{story.summary}</p> : null}
        <time dateTime={story.publishDate ?? undefined} className="text-sm text-ink/70">
          {formatDate(story.publishDate)}
        </time>
        <SourceLink
          story={story}
          label="Read Full Story"
          className="mt-auto inline-flex w-fit items-center gap-2 rounded-full bg-ink px-5 py-2.5 font-bold text-acid hover:bg-ufo hover:text-white"
          iconClassName="h-4 w-4"
        />
      </div>
    </article>
  );
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { featured, cards } = loaderData;
  const lead = cards.findIndex((card, i) => i < 3 && card.sample.imageUrl);
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
            {cards.map((card, i) => (
              // Without a featured story, the first row of cards is the first screen and its first picture the largest paint.
              <CategorySampleCard key={card.slug} {...card} loading={featured || i >= 3 ? "lazy" : i === lead ? "priority" : "eager"} />
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
