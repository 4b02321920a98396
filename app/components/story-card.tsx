import { Link } from "react-router";
import type { PublicStory } from "~/domain/stories/public-story";
import { formatDate } from "~/app/lib/format";
import { ExternalIcon } from "./icons";
import { StoryImage } from "./story-image";

/** The 'Weird' badge a card shows on hover and keyboard focus (the card needs the `group` class). */
export function WeirdBadge() {
  return (
    <span className="pointer-events-none absolute top-3 right-3 rotate-3 rounded-md bg-alarm-ink px-2 py-0.5 text-xs font-black tracking-widest text-white uppercase opacity-0 transition-opacity group-focus-within:opacity-100 group-hover:opacity-100">
      Weird
    </span>
  );
}

/** One story in a grid: picture, category, title, summary, date and a link out to the source. */
export function StoryCard({ story, linkLabel = "Read More" }: { story: PublicStory; linkLabel?: string }) {
  return (
    <article
      className={`group relative flex flex-col overflow-hidden rounded-2xl border-2 border-ink bg-white shadow-[4px_4px_0_0_var(--color-ink)] transition-transform focus-within:-translate-y-0.5 hover:-translate-y-0.5 ${story.isFeatured ? "sm:col-span-2 lg:col-span-3" : ""}`}
    >
      <div className="relative aspect-[16/9] overflow-hidden border-b-2 border-ink">
        <StoryImage src={story.imageUrl} alt={story.title} className="h-full w-full" />
        <WeirdBadge />
      </div>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <p className="text-xs font-bold tracking-wider text-ufo uppercase">{story.category}</p>
        <h3 className="font-display text-xl leading-tight font-extrabold">
          <Link to={`/story/${story.slug}`} className="rounded hover:underline">
            {story.title}
          </Link>
        </h3>
        {story.summary ? <p className="line-clamp-3 text-sm text-ink/75">{story.summary}</p> : null}
        <div className="mt-auto flex items-center justify-between gap-2 pt-3 text-sm">
          <time dateTime={story.publishDate ?? undefined} className="text-ink/70">
            {formatDate(story.publishDate)}
          </time>
          <a
            href={story.sourceUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex items-center gap-1 rounded-full bg-acid px-3 py-1 font-bold text-ink ring-2 ring-ink hover:bg-ink hover:text-acid"
          >
            {linkLabel}
            <ExternalIcon className="h-3.5 w-3.5" />
            <span className="sr-only"> about {story.title} (opens in a new tab)</span>
          </a>
        </div>
      </div>
    </article>
  );
}

/** A grid of story cards. */
export function StoryGrid({ stories, label }: { stories: PublicStory[]; label: string }) {
  return (
    <section aria-label={label} className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {stories.map((story) => (
        <StoryCard key={story.id} story={story} />
      ))}
    </section>
  );
}
