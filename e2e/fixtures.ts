// The stories the browser journeys expect to find (or never find) on the public site.
export const CATEGORIES = {
  animals: { name: "Animals", slug: "animals", displayOrder: 1 },
  space: { name: "Science & Space", slug: "science-space", displayOrder: 2 },
  empty: { name: "Records & Feats", slug: "records-feats", displayOrder: 3 },
  // Only the back-office journeys add stories here, so the public journeys' counts stay put.
  desk: { name: "Odd Jobs", slug: "odd-jobs", displayOrder: 4 },
};

type FixtureStory = { title: string; slug: string; url: string; category: keyof typeof CATEGORIES; hoursAgo: number; image: string | null; featured?: boolean };

export const FEATURED: FixtureStory = {
  title: "Town discovers its statue has been a cardboard cutout since 1987",
  slug: "town-statue-cardboard",
  url: "https://bizarre.example/statue",
  category: "space",
  hoursAgo: 2,
  image: "/demo/ufo.svg",
  featured: true,
};

export const PUBLISHED: FixtureStory[] = [
  { title: "Goat elected honorary mayor of Tromsø", slug: "goat-mayor", url: "https://oddplanet.example/stories/goat-mayor", category: "animals", hoursAgo: 1, image: null },
  { title: "Parrot orders forty pizzas through a smart speaker", slug: "parrot-pizza", url: "https://oddplanet.example/stories/parrot-pizza", category: "animals", hoursAgo: 5, image: "/demo/cat.svg" },
  { title: "Goatherd finds a meteorite shaped like a goat", slug: "goatherd-meteorite", url: "https://bizarre.example/meteorite", category: "space", hoursAgo: 8, image: "/demo/telescope.svg" },
];

export const PENDING = [
  { title: "PENDING: Raccoon runs for city council", slug: "pending-raccoon", url: "https://oddplanet.example/stories/raccoon-council" },
  { title: "PENDING: Ghost files a noise complaint", slug: "pending-ghost", url: "https://bizarre.example/ghost-noise" },
];

export const REJECTED_TITLE = "REJECTED: Pigeon forecasts the stock market";
export const CONTACT_EMAIL = "tips@oddwire.test";

export const ADMIN = { email: "admin@oddwire.test", password: "admin-password-1" };
export const EDITOR = { email: "editor@oddwire.test", password: "editor-password-1" };
export const PROMOTABLE = { email: "rising@oddwire.test", password: "rising-password-1" };

// Pending stories the back-office journeys publish and reject (no category, so public counts stay put).
export const BULK = [
  { title: "BULK: Owl delivers the village post", slug: "bulk-owl", url: "https://oddplanet.example/stories/owl-post" },
  { title: "BULK: Newt elected to the parish council", slug: "bulk-newt", url: "https://oddplanet.example/stories/newt-council" },
];

export const REVIEW = [
  { title: "REVIEW: Walrus joins a church choir", slug: "review-walrus", url: "https://oddplanet.example/stories/walrus-choir" },
  { title: "REVIEW: Yeti opens a bakery", slug: "review-yeti", url: "https://oddplanet.example/stories/yeti-bakery" },
];

// Pending stories the Edit journey changes in every field (no category at first: the dialog needs one).
export const EDITS = [
  { title: "EDIT: Llama takes the night bus", slug: "edit-llama", url: "https://oddplanet.example/stories/llama-bus", image: "/demo/cat.svg" },
  { title: "EDIT: Village votes for a pothole", slug: "edit-pothole", url: "https://bizarre.example/pothole-vote", image: "https://pictures.example/pothole.jpg" },
  { title: "EDIT: Clock runs backwards for a week", slug: "edit-clock", url: "https://bizarre.example/backwards-clock", image: null },
];

// ---- Sources page tools (RSS Validator, Manual Scrape, Watchlist, Trigger RSS Ingestion) ----
// A small site on 127.0.0.1 that the app fetches server-side. The fixture server writes its address
// into this file in its data dir, where the worker's journeys read it.
export const TOOLS_SITE_FILE = "sources-tools-site.json";
export const TOOLS_SOURCE_NAME = "Fixture Odd Feed";
export const TOOLS_FEED_PATH = "/odd-feed.xml";
export const TOOLS_NOT_A_FEED_PATH = "/not-a-feed.html";
export const TOOLS_FEED_TITLE = "The Odd Fixture Wire";
export const TOOLS_FEED_ITEMS = [
  "FEED: Tortoise completes marathon in record 41 hours",
  "FEED: Village votes to rename itself after a cat",
  "FEED: Lighthouse keeper finds message in a bottle from 1903",
  "FEED: Man builds a working car from cardboard",
  "FEED: Seagull steals a GoPro and films the coast",
  "FEED: Library book returned 97 years late",
];
export const TOOLS_ARTICLES = [
  { path: "/articles/moose-ski-lift.html", title: "SCRAPED: Moose rides a ski lift to the summit" },
  { path: "/articles/penguin-post-office.html", title: "SCRAPED: Penguins take over a post office" },
];
export const TOOLS_WATCH_PAGE = { path: "/odd-watch/", title: "Odd Watch Weekly" };
// Scraped only by the journey that retries failed URLs (admin-screens.spec.ts), so the others' counts stay put.
export const RETRY_ARTICLE = { path: "/articles/otter-toll-bridge.html", title: "SCRAPED: Otter collects tolls on a footbridge" };

const paragraph = (topic: string, n: number) =>
  `<p>Paragraph ${n} about ${topic}. Witnesses said the scene was unlike anything they had seen in years, and officials confirmed that nobody was hurt while the strange events unfolded in front of a growing crowd of delighted onlookers.</p>`;

/** The fixture site's pages: path to body and content type. */
export function toolsSitePages(siteUrl: string): Record<string, { body: string; headers: Record<string, string> }> {
  const html = (body: string) => ({ body, headers: { "content-type": "text/html; charset=utf-8" } });
  const items = TOOLS_FEED_ITEMS.map(
    (title, i) =>
      `<item><title>${title}</title><link>${siteUrl}/feed-stories/${i + 1}</link><guid>${siteUrl}/feed-stories/${i + 1}</guid>` +
      `<pubDate>${new Date(Date.UTC(2025, 2, 10 - i, 9, 30)).toUTCString()}</pubDate><description>Odd news item ${i + 1}.</description></item>`,
  ).join("");
  const pages: Record<string, { body: string; headers: Record<string, string> }> = {
    [TOOLS_FEED_PATH]: {
      body: `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>${TOOLS_FEED_TITLE}</title><link>${siteUrl}/</link><description>Strange but true, from the fixture desk.</description>${items}</channel></rss>`,
      headers: { "content-type": "application/rss+xml; charset=utf-8" },
    },
    [TOOLS_NOT_A_FEED_PATH]: html("<!doctype html><html><head><title>Just a page</title></head><body><h1>Nothing to subscribe to here</h1></body></html>"),
    [TOOLS_WATCH_PAGE.path]: html(`<!doctype html><html><head><title>${TOOLS_WATCH_PAGE.title}</title></head><body><h1>Odd news, weekly</h1></body></html>`),
  };
  for (const article of [...TOOLS_ARTICLES, RETRY_ARTICLE]) {
    const topic = article.title.replace("SCRAPED: ", "");
    pages[article.path] = html(
      `<!doctype html><html><head><title>${article.title}</title><meta property="og:title" content="${article.title}"><meta name="description" content="${topic}, witnesses say."><link rel="canonical" href="${siteUrl}${article.path}"></head>` +
        `<body><header><nav><a href="/">Home</a></nav></header><article><h1>${article.title}</h1>${[1, 2, 3, 4, 5].map((n) => paragraph(topic, n)).join("")}</article><footer>Fixture site</footer></body></html>`,
    );
  }
  return pages;
}

// ---- Sources page (admin-sources.spec.ts): a source in error and an inactive scraper, as the cards show them ----
export const SOURCES_PAGE = {
  broken: {
    name: "Haunted Gazette",
    websiteUrl: "https://haunted-gazette.example",
    // A local port nothing listens on: an ingestion run fails here without leaving the machine.
    rssFeedUrl: "http://127.0.0.1:9/haunted.xml",
    lastError: "HTTP 503 Service Unavailable",
    includeKeywords: ["ghost", "poltergeist"],
    excludeKeywords: ["halloween sale"],
    notes: "Goes quiet every autumn.",
  },
  scraper: {
    name: "Cryptid Chronicle",
    websiteUrl: "https://cryptid-chronicle.example",
    notes: "Scraped by hand until they fix their feed.",
  },
};

// ---- URL Que (admin-url-queue.spec.ts): two inactive Web Scraping sources and their queued URLs ----
// Inactive, so the minute discovery poll leaves them alone and the list stays as seeded.
export const QUEUE_SOURCES = { marsh: "Marsh Crawler", dune: "Dune Crawler" };
// Article pages on the fixture site (served beside the Sources tools' pages) that Scrape Selected stores.
export const QUEUE_ARTICLES = [
  { path: "/queue/heron-heist.html", title: "QUEUED: Heron steals a fisherman's lunch twice" },
  { path: "/queue/otter-orchestra.html", title: "QUEUED: Otters form a river orchestra" },
];
/** Queued rows on hosts nothing fetches: the journey rejects, deletes and filters them. */
export const QUEUE_ROWS = {
  rejectA: "https://marsh-crawler.example/2025/frog-parade",
  rejectB: "https://marsh-crawler.example/2025/toad-tax",
  deleteA: "https://marsh-crawler.example/2025/newt-nap",
  deleteB: "https://marsh-crawler.example/2025/eel-escape",
  duneQueued: "https://dune-crawler.example/2025/camel-chess",
  duneRetry: "https://dune-crawler.example/2025/lizard-lottery",
  duneScraped: "https://dune-crawler.example/2024/sand-symphony",
  duneFailed: "https://dune-crawler.example/2024/mirage-market",
};
export const QUEUE_RETRY_ERROR = "Scrape failed or rate limited. Left queued for retry. Reason: Rate limited (HTTP 503)";
export const QUEUE_FAILED_ERROR = "Failed 3 times. Last reason: HTTP 404";

/** The URL Que's article pages on the fixture site: path to body and content type. */
export function queueSitePages(siteUrl: string): Record<string, { body: string; headers: Record<string, string> }> {
  const pages: Record<string, { body: string; headers: Record<string, string> }> = {};
  for (const article of QUEUE_ARTICLES) {
    const topic = article.title.replace("QUEUED: ", "");
    pages[article.path] = {
      body:
        `<!doctype html><html><head><title>${article.title}</title><meta property="og:title" content="${article.title}"><meta name="description" content="${topic}, the marsh reports."><link rel="canonical" href="${siteUrl}${article.path}"></head>` +
        `<body><header><nav><a href="/">Home</a></nav></header><article><h1>${article.title}</h1>${[1, 2, 3, 4, 5].map((n) => paragraph(topic, n)).join("")}</article><footer>Fixture site</footer></body></html>`,
      headers: { "content-type": "text/html; charset=utf-8" },
    };
  }
  return pages;
}

// ---- Image enhancement (admin-images.spec.ts): pending stories whose pages and images the journey serves ----
// The journey starts its own image site on 127.0.0.1; the stories must name it before it starts, so
// its port is the app server's plus this offset (below Linux's ephemeral range, as the app's ports are).
export const IMAGES_SITE_PORT_OFFSET = 100;

/** The journey's image site for the app server at `appUrl`. */
export function imagesSiteUrl(appUrl: string): string {
  return `http://127.0.0.1:${Number(new URL(appUrl).port) + IMAGES_SITE_PORT_OFFSET}`;
}

/**
 * The stories' ids start here, far above the ones the database hands out (the fixture server moves
 * the id sequence for them and back): a batch takes the stories needing work with the highest ids,
 * so "Enhance 10" takes the ten below whatever stories the scheduled RSS poll or earlier journeys add.
 */
export const IMAGES_FIRST_ID = 90_000;

/** The single-story test's story: a 150x100 image now, a 1600x900 one as its page's og:image. */
export const IMAGES_TEST_STORY = {
  id: IMAGES_FIRST_ID,
  title: "PICTURE: Hedgehog found asleep in a teapot",
  slug: "picture-hedgehog-teapot",
  path: "/articles/hedgehog-teapot.html",
  smallImage: "/images/hedgehog-teapot-small.jpg",
  largeImage: "/images/hedgehog-teapot-large.jpg",
};

/** The batch's stories, newer than the test's: each page has a large og:image but two (one only a tiny icon, one already large). */
export const IMAGES_BATCH = [
  "Llama gatecrashes a village wedding",
  "Crow returns a lost wedding ring",
  "Tortoise outruns a delivery drone",
  "Snail mail delivered by an actual snail",
  "Pelican joins a rowing club",
  "Badger digs up a Roman coin hoard",
  "Ferret rescues a stuck kite",
  "Alpaca appointed school librarian",
  "Squirrel hoards golf balls in a drainpipe",
  "Moth delays a cathedral concert",
].map((topic, i) => ({
  id: IMAGES_FIRST_ID + 1 + i,
  title: `PICTURE: ${topic}`,
  slug: `picture-batch-${i + 1}`,
  path: `/gallery/${i + 1}.html`,
  // The first is already high-resolution (skipped), the second has only an icon on its page (failed).
  currentImage: i === 0 ? `/images/gallery-${i + 1}-large.jpg` : i % 2 === 0 ? `/images/gallery-${i + 1}-small.jpg` : null,
  pageImage: i === 1 ? "/images/tiny-icon.jpg" : `/images/gallery-${i + 1}-large.jpg`,
}));

// ---- Social Media (admin-social.spec.ts): a fake Graph API the server posts to, steered through a control server ----
export const SOCIAL_GRAPH_FILE = "facebook-graph.json";
export const SOCIAL_PAGE_NAME = "Oddwire Fixture Page";
/** The fixture server starts without a Page connection when this is set (the not-connected journey). */
export const SOCIAL_NOT_CONNECTED_ENV = "E2E_FACEBOOK_OFF";
/** Published stories only the Social Media journey posts (in the back office's own category, days old). */
export const SOCIAL_STORIES = [
  { title: "SOCIAL: Lighthouse keeper teaches seagulls to knock", slug: "social-seagulls", summary: "The birds now tap twice on the window before stealing his chips, which he calls progress." },
  { title: "SOCIAL: Village fountain starts dispensing lemonade", slug: "social-lemonade", summary: "Engineers blame a mix-up at the bottling plant next door; residents have stopped complaining." },
  { title: "SOCIAL: Snail finishes marathon after four years", slug: "social-snail", summary: "Race officials kept the finish line open out of respect." },
  { title: "SOCIAL: Accordion found inside a hollow oak", slug: "social-accordion", summary: "Nobody knows how it got there, and it is still in tune." },
];
