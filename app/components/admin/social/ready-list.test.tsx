import { renderToStaticMarkup } from "react-dom/server";
import { expect, test } from "vitest";
import { ReadyList } from "./ready-list";

const render = (props: Partial<Parameters<typeof ReadyList>[0]>) =>
  renderToStaticMarkup(<ReadyList stories={[]} chosenId={null} loading={false} onChoose={() => {}} {...props} />);

test("'Stories Ready to Post' says 'Loading stories...' while it loads, and when empty 'No new stories available for posting'", () => {
  expect(render({ loading: true })).toContain("Loading stories...");
  expect(render({ loading: true })).not.toContain("No new stories available for posting");
  expect(render({})).toContain("No new stories available for posting");
});

test("lists each story as a button, the chosen one pressed", () => {
  const story = { id: 4, title: "Goat elected mayor", summary: null, slug: "goat", imageUrl: null, imageWidth: null, publishDate: null, categoryName: "Animals", categorySlug: "animals" };
  const html = render({ stories: [story, { ...story, id: 5, title: "Cat runs for office" }], chosenId: 4 });
  expect(html.match(/<button[^>]*aria-pressed="true"[^>]*>.*?<\/button>/)?.[0]).toContain("Goat elected mayor");
  expect(html.match(/<button[^>]*aria-pressed="false"[^>]*>.*?<\/button>/)?.[0]).toContain("Cat runs for office");
});
