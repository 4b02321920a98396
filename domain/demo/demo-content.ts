import { DEFAULT_CATEGORIES } from "~/domain/categories/default-categories";
import { slugify } from "~/lib/slug";
import { seededRandom } from "~/lib/seeded-random";

// Deterministic demo content: the same run of the generator always yields the same stories and
// URLs, so seeding twice adds nothing. Dates are relative to `now` so the site always looks alive.

export type DemoSource = {
  name: string;
  sourceType: "rss" | "web_scraping" | "manual";
  status: "active" | "inactive" | "error";
  websiteUrl: string;
  rssFeedUrl: string | null;
  includeKeywords: string[];
  excludeKeywords: string[];
  notes: string | null;
  scrapingConfig: Record<string, unknown>;
  domain: string;
};

export type DemoStory = {
  title: string;
  slug: string;
  summary: string;
  content: string;
  imageUrl: string | null;
  originalUrl: string;
  categorySlug: string;
  sourceName: string;
  status: "published" | "pending" | "rejected";
  isFeatured: boolean;
  publishDate: Date;
  createdAt: Date;
  updatedAt: Date;
};

// The password is not here: it is generated per data directory (server/demo-admin.ts) and passed in.
export const DEMO_ADMIN = { email: "admin@oddwire.test", name: "Demo Admin" } as const;

export const DEMO_SOURCES: DemoSource[] = [
  {
    name: "Odd Planet Wire",
    sourceType: "rss",
    status: "active",
    websiteUrl: "https://oddplanet.example",
    rssFeedUrl: "https://oddplanet.example/feed.xml",
    includeKeywords: [],
    excludeKeywords: ["obituary"],
    notes: "Wire service for the strange; reliable, sometimes slow to update.",
    scrapingConfig: {},
    domain: "oddplanet.example",
  },
  {
    name: "The Bizarre Bulletin",
    sourceType: "rss",
    status: "active",
    websiteUrl: "https://bizarrebulletin.example",
    rssFeedUrl: "https://bizarrebulletin.example/rss",
    includeKeywords: ["weird", "strange", "bizarre", "odd"],
    excludeKeywords: ["sponsored"],
    notes: null,
    scrapingConfig: {},
    domain: "bizarrebulletin.example",
  },
  {
    name: "Strange Days Daily",
    sourceType: "rss",
    status: "inactive",
    websiteUrl: "https://strangedays.example",
    rssFeedUrl: "https://strangedays.example/atom.xml",
    includeKeywords: [],
    excludeKeywords: [],
    notes: "Paused while their feed migrates to a new host.",
    scrapingConfig: {},
    domain: "strangedays.example",
  },
  {
    name: "Curious Times",
    sourceType: "web_scraping",
    status: "active",
    websiteUrl: "https://curioustimes.example",
    rssFeedUrl: null,
    includeKeywords: [],
    excludeKeywords: ["horoscope"],
    notes: "No feed; articles are crawled from the offbeat section.",
    scrapingConfig: {
      startUrls: ["https://curioustimes.example/offbeat"],
      allowlistPatterns: ["/offbeat/\\d{4}/"],
      denylistPatterns: ["/tag/", "/author/"],
      jsRendering: false,
      crawlDelay: 1000,
      minBodyThreshold: 500,
    },
    domain: "curioustimes.example",
  },
  {
    name: "Weird Science Journal",
    sourceType: "web_scraping",
    status: "error",
    websiteUrl: "https://weirdscience.example",
    rssFeedUrl: null,
    includeKeywords: [],
    excludeKeywords: [],
    notes: "Blocks crawlers on weekends.",
    scrapingConfig: { startUrls: ["https://weirdscience.example/news"], crawlDelay: 2000, minBodyThreshold: 500 },
    domain: "weirdscience.example",
  },
  {
    name: "Reader Tips",
    sourceType: "manual",
    status: "active",
    websiteUrl: "https://oddwire.test/contact-us",
    rssFeedUrl: null,
    includeKeywords: [],
    excludeKeywords: [],
    notes: "Stories sent in by readers and pasted by editors.",
    scrapingConfig: {},
    domain: "tips.oddwire.test",
  },
];

// Headline pieces per category: {a} a subject, {b} what happened, {p} a place.
const HEADLINES: Record<string, { subjects: string[]; events: string[] }> = {
  animals: {
    subjects: ["Goat", "Raccoon", "Parrot", "Alpaca", "Seagull", "Cat", "Tortoise", "Emu", "Beaver", "Octopus"],
    events: [
      "elected honorary mayor of {p}",
      "steals a police car in {p} and refuses to give it back",
      "learns to open the fridge and eats a wedding cake in {p}",
      "causes a two-hour traffic jam outside {p}",
      "adopted by a retirement home in {p}, now runs bingo night",
      "found riding the night bus through {p}",
      "wins the {p} village talent show",
      "holds up a ferry crossing near {p} for forty minutes",
    ],
  },
  "crime-courts": {
    subjects: ["Man", "Woman", "Retired dentist", "Teenager", "Grandmother", "Mime", "Wedding planner", "Lifeguard"],
    events: [
      "sues neighbour over a garden gnome's facial expression in {p}",
      "arrested for paying a fine entirely in pennies in {p}",
      "tries to rob a {p} bank with a banana",
      "calls police to report their own stolen pizza in {p}",
      "fined for walking a lobster on a leash in {p}",
      "wins court case against a vending machine in {p}",
      "escapes custody in {p} by hiding in a giant teddy bear",
      "charged with impersonating a statue in {p}",
    ],
  },
  "science-space": {
    subjects: ["Astronomers", "Physicists", "Researchers", "A school science club", "Marine biologists", "Engineers"],
    events: [
      "find a rock in {p} that hums at exactly middle C",
      "discover that cows in {p} moo in regional accents",
      "accidentally create the world's smelliest cheese in {p}",
      "detect a radio signal from {p} that turns out to be a microwave",
      "measure how long it takes to bore a goldfish in {p}",
      "grow a potato in {p} shaped exactly like a famous composer",
      "build a telescope from 600 spoons in {p}",
    ],
  },
  "food-drink": {
    subjects: ["Bakery", "Chef", "Café owner", "Pizza chain", "Brewery", "Ice cream van"],
    events: [
      "in {p} serves a sandwich taller than its customers",
      "in {p} launches pickle-flavoured lemonade to mixed reviews",
      "bakes a loaf shaped like the town hall of {p}",
      "in {p} apologises after soup is declared a hazard",
      "in {p} offers free coffee to anyone who sings",
      "in {p} accidentally invents blue chocolate",
      "sets a record in {p} with a 90-metre spaghetti strand",
    ],
  },
  "tech-internet": {
    subjects: ["Smart fridge", "Robot vacuum", "Self-driving taxi", "Voice assistant", "Drone", "Printer"],
    events: [
      "in {p} orders 400 rubber ducks without asking",
      "in {p} gets stuck doing laps of a roundabout for an hour",
      "in {p} starts speaking only in rhyming couplets",
      "in {p} joins a local chess club and loses every game",
      "in {p} locks its owner out over a forgotten password",
      "in {p} livestreams a pigeon's nap to thousands",
      "in {p} refuses to print anything but cat pictures",
    ],
  },
  "sports-games": {
    subjects: ["Amateur football team", "Darts champion", "Marathon runner", "Chess grandmaster", "Bowling league", "Cyclist"],
    events: [
      "in {p} loses to a team of pensioners 14-0",
      "finishes a race in {p} dressed as a lighthouse",
      "in {p} plays a full match in the dark after a power cut",
      "wins a {p} tournament without hitting a single target",
      "in {p} trains with a flock of geese",
      "in {p} accidentally scores for both sides",
    ],
  },
  paranormal: {
    subjects: ["Haunted doll", "Ghost hunter", "Village council", "Lighthouse keeper", "Museum curator", "Psychic octopus"],
    events: [
      "in {p} is blamed for a spate of missing socks",
      "in {p} files a noise complaint against a ghost",
      "in {p} records footsteps that turn out to be a hedgehog",
      "in {p} puts a spooky painting up for adoption",
      "in {p} reports a ghost that only appears on Tuesdays",
      "in {p} predicts the weather better than the forecasters",
    ],
  },
  "records-feats": {
    subjects: ["Pensioner", "Twins", "Postman", "Librarian", "Student", "Family of five"],
    events: [
      "in {p} builds the world's largest rubber band ball",
      "in {p} balances 47 spoons on their face",
      "in {p} hops on one foot for 19 kilometres",
      "in {p} collects 12,000 traffic cones",
      "in {p} knits a scarf longer than the local high street",
      "in {p} eats 30 jalapeños in a minute and then asks for more",
    ],
  },
};

const PLACES = [
  "Bristol", "Tulsa", "Ghent", "Dunedin", "Winnipeg", "Cork", "Ballarat", "Tromsø", "Flagstaff",
  "Galway", "Hobart", "Lyon", "Porto", "Bergen", "Aarhus", "Duluth", "Nelson", "Inverness",
];

const OPENERS = [
  "Locals say they have seen nothing like it.",
  "Officials confirmed the report on Tuesday.",
  "Witnesses described the scene as 'mildly alarming'.",
  "Nobody was hurt, although several people were baffled.",
  "The incident has already inspired a song.",
  "Experts are divided on what it means.",
];

// Local illustrations in public/demo, chosen to suit each category.
const IMAGES: Record<string, string[]> = {
  animals: ["goat", "cat", "octopus", "llama"],
  "crime-courts": ["gnome", "donut", "cat"],
  "science-space": ["telescope", "ufo", "octopus"],
  "food-drink": ["donut", "pickle"],
  "tech-internet": ["robot", "ufo"],
  "sports-games": ["trophy", "goat"],
  paranormal: ["ghost", "ufo", "gnome"],
  "records-feats": ["trophy", "llama", "pickle"],
};

const DETAILS = [
  "The story from {p} has been shared thousands of times since.",
  "A spokesperson in {p} called it 'a first for the town'.",
  "Neighbours in {p} have started a petition to make it an annual event.",
  "Local radio in {p} covered it live for most of the afternoon.",
  "Tourists have begun arriving in {p} hoping to see it for themselves.",
];

export const DEMO_STORY_COUNTS = { published: 265, pending: 45, rejected: 30 } as const;

/** The demo stories, newest first; `now` anchors their dates. */
export function demoStories(now: Date): DemoStory[] {
  const random = seededRandom(20250101);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const total = DEMO_STORY_COUNTS.published + DEMO_STORY_COUNTS.pending + DEMO_STORY_COUNTS.rejected;
  const seen = new Set<string>();
  const stories: DemoStory[] = [];
  const hour = 3_600_000;

  for (let i = 0; stories.length < total; i++) {
    const category = DEFAULT_CATEGORIES[i % DEFAULT_CATEGORIES.length]!;
    const pieces = HEADLINES[category.slug]!;
    const place = pick(PLACES);
    const title = `${pick(pieces.subjects)} ${pick(pieces.events).replace("{p}", place)}`;
    // Not cut to a story slug's length: these slugs are in the demo stories' URLs, by which a seed
    // finds the ones an earlier seed stored, and three titles run past it.
    const slug = slugify(title);
    if (seen.has(slug)) continue;
    seen.add(slug);

    const n = stories.length;
    // Pending and rejected stories are the freshest finds; published ones reach back about eight months.
    const status: DemoStory["status"] =
      n < DEMO_STORY_COUNTS.pending
        ? "pending"
        : n < DEMO_STORY_COUNTS.pending + DEMO_STORY_COUNTS.rejected
          ? "rejected"
          : "published";
    const source = DEMO_SOURCES[n % DEMO_SOURCES.length]!;
    const age = status === "published" ? (n - 75) * 22 + 3 + Math.floor(random() * 12) : n * 1.5 + 1;
    const publishDate = new Date(now.getTime() - age * hour);
    const opener = pick(OPENERS);
    stories.push({
      title,
      slug,
      summary: `${opener} ${pick(DETAILS).replace("{p}", place)}`,
      content: [
        `${title}, according to reports from ${place}.`,
        opener,
        `"I have lived in ${place} for thirty years and this is a first," one resident said.`,
        "The story was picked up by several outlets before anyone could confirm the details.",
      ].join("\n\n"),
      imageUrl: n % 7 === 3 ? null : `/demo/${pick(IMAGES[category.slug]!)}.svg`,
      // Stable across runs (no dates in it), so a second seed finds every story already there.
      originalUrl: `https://www.${source.domain}/stories/${slug}?utm_source=rss`,
      categorySlug: category.slug,
      sourceName: source.name,
      status,
      isFeatured: status === "published" && n % 40 === 5,
      publishDate,
      createdAt: new Date(publishDate.getTime() - 2 * hour),
      updatedAt: publishDate,
    });
  }
  return stories;
}

/** URLs discovered on the demo's crawled source, so the URL Que has something to triage. */
export type DemoQueuedUrl = { path: string; hoursAgo: number; status: "queued" | "scraped" | "failed"; error: string | null; attempts: number };

export const DEMO_QUEUE_SOURCE = "Curious Times";
export const DEMO_QUEUED_URLS: DemoQueuedUrl[] = [
  { path: "/offbeat/2026/lighthouse-cat-harbour-master", hoursAgo: 1, status: "queued", error: null, attempts: 0 },
  { path: "/offbeat/2026/snail-wins-village-sprint", hoursAgo: 3, status: "queued", error: null, attempts: 0 },
  { path: "/offbeat/2026/toaster-found-in-ancient-tomb", hoursAgo: 5, status: "queued", error: null, attempts: 0 },
  { path: "/offbeat/2026/man-returns-library-book-after-60-years", hoursAgo: 9, status: "queued", error: null, attempts: 0 },
  {
    path: "/offbeat/2026/goose-directs-traffic",
    hoursAgo: 14,
    status: "queued",
    error: "Scrape failed or rate limited. Left queued for retry. Reason: Rate limited (HTTP 429)",
    attempts: 1,
  },
  { path: "/offbeat/2026/village-elects-dog-as-mayor", hoursAgo: 26, status: "scraped", error: null, attempts: 0 },
  { path: "/offbeat/2026/giant-pumpkin-regatta", hoursAgo: 30, status: "scraped", error: null, attempts: 0 },
  {
    path: "/offbeat/2026/ufo-turns-out-to-be-kite",
    hoursAgo: 50,
    status: "failed",
    error: "Failed 3 times. Last reason: Too little text (212 characters; at least 500 needed)",
    attempts: 3,
  },
];
