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
