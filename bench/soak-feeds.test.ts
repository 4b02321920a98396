import { afterEach, describe, expect, test } from "vitest";
import { makeStory } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { checkIngested, soakItems, startSoakFeeds, type SoakFeeds } from "./soak-feeds";

const t = testDatabaseForFile();
let feeds: SoakFeeds | undefined;
afterEach(async () => {
  await feeds?.close();
  feeds = undefined;
});

const titlesIn = (xml: string) => [...xml.matchAll(/<title>(Soak feed \d+ item [^<]+)<\/title>/g)].map((m) => m[1]!);

describe("the soak's feeds", () => {
  test("gain an item each period and drop their oldest, with an ETag per version answered 304 until it changes", async () => {
    let now = 1_000_000;
    feeds = await startSoakFeeds({ feeds: 2, periodMs: 10_000, window: 5, initial: 3, now: () => now });
    const first = await fetch(feeds.feedUrl(0));
    const etag = first.headers.get("etag")!;
    expect(titlesIn(await first.text())).toEqual(soakItems(0, 3, 5, 1_000_000, 10_000).map((i) => i.title));
    expect((await fetch(feeds.feedUrl(0), { headers: { "if-none-match": etag } })).status).toBe(304);

    now += 30_000;
    const later = await fetch(feeds.feedUrl(0), { headers: { "if-none-match": etag } });
    expect(later.status).toBe(200);
    const titles = titlesIn(await later.text());
    expect(titles).toHaveLength(5);
    expect(titles[0]).toMatch(/^Soak feed 0 item 5: /);
    expect(titles.at(-1)).toMatch(/^Soak feed 0 item 1: /);
    expect(feeds.served().size).toBe(6);

    feeds.freeze();
    now += 60_000;
    expect(feeds.version(0)).toBe(6);
    expect((await fetch(feeds.feedUrl(0), { headers: { "if-none-match": later.headers.get("etag")! } })).status).toBe(304);
    expect((await fetch(`${feeds.url}/feed/2.xml`)).status).toBe(404);
  });

  test("the database check names every served item that is no story, and every one stored twice", async () => {
    const [a, b, c] = soakItems(3, 3, 5, 0, 1_000).map((item) => item.title);
    await makeStory(t.db, { title: a! });
    await makeStory(t.db, { title: b! });
    await makeStory(t.db, { title: b! });
    await makeStory(t.db, { title: "A story of the site's own" });
    expect(await checkIngested(t.db, new Set([a!, b!, c!]))).toEqual({ expected: 3, stored: 3, lost: [c], duplicated: [{ title: b, copies: 2 }] });
  });
});
