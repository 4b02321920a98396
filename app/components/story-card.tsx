import { Link } from "react-router";
import type { PublicStory } from "~/domain/stories/public-story";
import { formatDate } from "~/app/lib/format";
import { ExternalIcon } from "./icons";
import { StoryImage, type ImageLoading } from "./story-image";

// The width a card's picture takes in the page's grid (main is 72rem wide with 1rem padding; one
// column, then two from 640 px, then three 1.5rem apart from 1024 px), and a card spanning the row.
const CARD_SIZES = "(min-width: 1152px) 358px, (min-width: 1024px) calc((100vw - 80px) / 3), (min-width: 640px) calc((100vw - 56px) / 2), calc(100vw - 32px)";
const ROW_SIZES = "(min-width: 1152px) 1120px, calc(100vw - 32px)";

/** The 'Weird' badge a card shows on hover and keyboard focus (the card needs the `group` class). */
export function WeirdBadge() {
  return (
    <span className="pointer-events-none absolute top-3 right-3 rotate-3 rounded-md bg-alarm-ink px-2 py-0.5 text-xs font-black tracking-widest text-white uppercase opacity-0 transition-opacity group-focus-within:opacity-100 group-hover:opacity-100">
      Weird
    </span>
  );
}

/**
 * The link out to a story's original source: a new tab, no opener, no referrer. `about` names the
 * story for screen readers where several such links share a page.
 */
export function SourceLink({
  story,
  label,
  className,
  iconClassName,
  about = false,
}: {
  story: Pick<PublicStory, "sourceUrl" | "title">;
  label: string;
  className: string;
  iconClassName: string;
  about?: boolean;
}) {
  return (
    <a href={story.sourceUrl} target="_blank" rel="noopener noreferrer" className={className}>
      {label}
      <ExternalIcon className={iconClassName} />
      <span className="sr-only">{about ? ` about ${story.title} (opens in a new tab)` : " (opens in a new tab)"}</span>
    </a>
  );
}

// The two looks of a card: a story in a grid, and the sample story under a category's name on the home page.
const LOOKS = {
  grid: {
    title: "font-display text-xl leading-tight font-extrabold",
    link: "bg-acid text-ink ring-2 ring-ink hover:bg-ink hover:text-acid",
    label: "Read More",
    showCategory: true,
  },
  sample: {
    title: "font-display text-lg leading-tight font-bold",
    link: "bg-ink text-acid hover:bg-ufo hover:text-white",
    label: "Read Story",
    showCategory: false,
  },
} as const;

/** The level of a card's title: one below the heading the cards sit under, so no level is skipped. */
export type CardHeading = "h2" | "h3" | "h4";

/** A card's picture (with the 'Weird' badge) and text: category, title, summary, date and the link out. */
function StoryCardContent({
  story,
  look,
  loading,
  Heading,
  wide,
}: {
  story: PublicStory;
  look: keyof typeof LOOKS;
  loading: ImageLoading;
  Heading: CardHeading;
  wide: boolean;
}) {
  const { title, link, label, showCategory } = LOOKS[look];
  return (
    <>
      <div className="relative aspect-[16/9] overflow-hidden border-b-2 border-ink">
        <StoryImage story={story} alt={story.title} sizes={wide ? ROW_SIZES : CARD_SIZES} loading={loading} className="h-full w-full" />
        <WeirdBadge />
      </div>
      <div className="flex flex-1 flex-col gap-2 p-4">
        {showCategory ? <p className="text-xs font-bold tracking-wider text-ufo uppercase">{story.category}</p> : null}
        <Heading className={title}>
          <Link to={`/story/${story.slug}`} className="rounded hover:underline">
            {story.title}
          </Link>
        </Heading>
        {story.summary ? <p className="line-clamp-3 text-sm text-ink/75">{story.summary}</p> : null}
        <div className="mt-auto flex items-center justify-between gap-2 pt-3 text-sm">
          <time dateTime={story.publishDate ?? undefined} className="text-ink/70">
            {formatDate(story.publishDate)}
          </time>
          <SourceLink story={story} label={label} about className={`inline-flex items-center gap-1 rounded-full px-3 py-1 font-bold ${link}`} iconClassName="h-3.5 w-3.5" />
        </div>
      </div>
    </>
  );
}

const CARD = "group flex flex-col overflow-hidden rounded-2xl border-2 border-ink bg-white shadow-[4px_4px_0_0_var(--color-ink)]";

/**
 * A card below the first screen (its picture lazy) is laid out and painted only as it nears the
 * screen, in a box of about its height until then: a long page's first layout on a phone took some
 * 100 ms of a slowed CPU for cards no one sees yet.
 */
function offscreen(loading: ImageLoading): string {
  return loading === "lazy" ? "[content-visibility:auto] [contain-intrinsic-size:auto_28rem]" : "";
}

/**
 * One story in a grid: picture, category, title, summary, date and a link out to the source; a
 * featured one spans the row unless the grid asks for `uniform` cards.
 */
export function StoryCard({
  story,
  loading = "lazy",
  heading = "h2",
  uniform = false,
}: {
  story: PublicStory;
  loading?: ImageLoading;
  heading?: CardHeading;
  uniform?: boolean;
}) {
  const wide = story.isFeatured && !uniform;
  return (
    <article className={`${CARD} ${offscreen(loading)} relative transition-transform focus-within:-translate-y-0.5 hover:-translate-y-0.5 ${wide ? "sm:col-span-2 lg:col-span-3" : ""}`}>
      <StoryCardContent story={story} look="grid" loading={loading} Heading={heading} wide={wide} />
    </article>
  );
}

/** A category on the home page: its name (linking to its page), its story count, and its first story as a sample. */
export function CategorySampleCard({
  name,
  slug,
  storyCount,
  sample,
  loading = "lazy",
}: {
  name: string;
  slug: string;
  storyCount: number;
  sample: PublicStory;
  loading?: ImageLoading;
}) {
  return (
    <article className={`${CARD} ${offscreen(loading)}`}>
      <div className="flex items-baseline justify-between gap-2 border-b-2 border-ink bg-acid px-4 py-3">
        <h3 className="font-display text-xl font-extrabold">
          <Link to={`/category/${slug}`} className="rounded hover:underline">
            {name}
          </Link>
        </h3>
        <span className="text-sm font-bold whitespace-nowrap">
          {storyCount} {storyCount === 1 ? "story" : "stories"}
        </span>
      </div>
      <StoryCardContent story={sample} look="sample" loading={loading} Heading="h4" wide={false} />
    </article>
  );
}

/**
 * A grid of story cards. The pictures of the first `eager` cards (the first screen) load at once,
 * the first picture among them with high priority (the page's largest paint on a phone); the rest lazily.
 * With a `label` the grid is a region of its own; without one it sits in its caller's section.
 * Card titles are `heading` (h2 under the page's h1). `uniform` keeps a featured story to one cell.
 */
export function StoryGrid({
  stories,
  label,
  eager = 3,
  heading = "h2",
  uniform = false,
}: {
  stories: PublicStory[];
  label?: string;
  eager?: number;
  heading?: CardHeading;
  uniform?: boolean;
}) {
  // The first picture of the first screen is its largest paint: a story without one shows the logo.
  const lead = stories.findIndex((story, i) => i < eager && story.imageUrl);
  const cards = stories.map((story, i) => (
    <StoryCard key={story.id} story={story} heading={heading} uniform={uniform} loading={i === lead ? "priority" : i < eager ? "eager" : "lazy"} />
  ));
  const className = "mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3";
  return label ? (
    <section aria-label={label} className={className}>
      {cards}
    </section>
  ) : (
    <div className={className}>{cards}</div>
  );
}
