import { listLatestStories } from "~/domain/stories/latest-stories";
import { StoryCard } from "~/app/components/story-card";
import { SiteFooter, SiteHeader } from "~/app/components/site-chrome";
import type { Route } from "./+types/home";

export function meta(): Route.MetaDescriptors {
  return [
    { title: "Oddwire: weird news from around the world" },
    { name: "description", content: "The strangest true stories of the day, each linked to its original source." },
  ];
}

export async function loader({ context }: Route.LoaderArgs) {
  const stories = await listLatestStories(context.repos);
  return { stories, contactEmail: context.config.contactEmail };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { stories, contactEmail } = loaderData;
  return (
    <>
      <SiteHeader />
      <main id="main" className="mx-auto max-w-6xl px-4 py-10">
        <h1 className="font-display text-4xl font-extrabold tracking-tight sm:text-5xl">
          Today&apos;s <span className="bg-acid px-2">weird</span> news
        </h1>
        {stories.length === 0 ? (
          <div className="mt-10 rounded-2xl border-2 border-dashed border-ink/40 p-10 text-center">
            <p className="font-display text-2xl font-bold">No stories available yet</p>
            <p className="mt-2 text-ink/70">Check back soon for weird news updates!</p>
          </div>
        ) : (
          <section aria-label="Latest stories" className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {stories.map((story) => (
              <StoryCard key={story.id} story={story} />
            ))}
          </section>
        )}
      </main>
      <SiteFooter contactEmail={contactEmail} />
    </>
  );
}
