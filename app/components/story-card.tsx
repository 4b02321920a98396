import type { PublicStory } from "~/domain/stories/public-story";
import { formatDate } from "~/app/lib/format";
import { StoryImage } from "./story-image";

/** One story in a grid: picture, category, title, summary, date and a link out to the source. */
export function StoryCard({ story }: { story: PublicStory }) {
  return (
    <article
      className={`group relative flex flex-col overflow-hidden rounded-2xl border-2 border-ink bg-white shadow-[4px_4px_0_0_var(--color-ink)] transition-transform focus-within:-translate-y-0.5 hover:-translate-y-0.5 ${story.isFeatured ? "sm:col-span-2 lg:col-span-3" : ""}`}
    >
      <div className="relative aspect-[16/9] overflow-hidden border-b-2 border-ink">
        <StoryImage src={story.imageUrl} alt={story.title} className="h-full w-full" />
        <span className="pointer-events-none absolute top-3 right-3 rotate-3 rounded-md bg-alarm px-2 py-0.5 text-xs font-black tracking-widest text-white uppercase opacity-0 transition-opacity group-focus-within:opacity-100 group-hover:opacity-100">
          Weird
        </span>
      </div>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <p className="text-xs font-bold tracking-wider text-ufo uppercase">{story.category}</p>
        <h3 className="font-display text-xl leading-tight font-extrabold">{story.title}</h3>
        {story.summary ? <p className="line-clamp-3 text-sm text-ink/75">{story.summary}</p> : null}
        <div className="mt-auto flex items-center justify-between gap-2 pt-3 text-sm">
          <time dateTime={story.publishDate ?? undefined} className="text-ink/60">
            {formatDate(story.publishDate)}
          </time>
          <a
            href={story.sourceUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="rounded-full bg-acid px-3 py-1 font-bold text-ink ring-2 ring-ink hover:bg-ink hover:text-acid"
          >
            Read More<span className="sr-only"> about {story.title} (opens in a new tab)</span>
          </a>
        </div>
      </div>
    </article>
  );
}
