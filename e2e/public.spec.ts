import { gotoHydrated } from "./helpers";
import { expect, test, type Page } from "@playwright/test";
import { CATEGORIES, CONTACT_EMAIL, FEATURED, PENDING, PUBLISHED, REJECTED_TITLE } from "./fixtures";

async function expectNothingUnpublished(page: Page) {
  const text = await page.locator("body").innerText();
  for (const story of PENDING) expect(text).not.toContain(story.title);
  expect(text).not.toContain(REJECTED_TITLE);
}

test.describe("the home page", () => {
  test("features the featured story with a link out to its source", async ({ page }) => {
    const response = await page.goto("/");
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("weird");
    const featured = page.getByRole("article").filter({ has: page.getByRole("heading", { name: FEATURED.title }) });
    await expect(featured).toHaveCount(1);
    const link = featured.getByRole("link", { name: /Read Full Story/ });
    await expect(link).toHaveAttribute("href", FEATURED.url);
    await expect(link).toHaveAttribute("target", "_blank");
    await expect(link).toHaveAttribute("rel", /noopener/);
    // The featured picture is the page's largest: fetched first, in a box of known size. Even the
    // site's own files are served as sized variants under /img, and the picture really loads.
    const picture = featured.getByRole("img", { name: FEATURED.title });
    await expect(picture).toHaveAttribute("src", /^\/img\/\d+\/[0-9a-f]{8}\/800$/);
    await expect(picture).toHaveAttribute("srcset", /\/1200 1200w$/);
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    await expect(picture).toHaveAttribute("fetchpriority", "high");
    await expect(picture).toHaveAttribute("loading", "eager");
    await expect(picture).toHaveAttribute("width", "1200");
    await expect(picture).toHaveAttribute("height", "675");
  });

  test("shows a card per category with its count and newest story, never unpublished ones", async ({ page }) => {
    await page.goto("/");
    const animals = page.getByRole("article").filter({ has: page.getByRole("link", { name: "Animals", exact: true }) });
    await expect(animals).toContainText("2 stories");
    await expect(animals).toContainText(PUBLISHED[0]!.title);
    await expect(animals.getByRole("link", { name: /Read Story/ })).toHaveAttribute("href", PUBLISHED[0]!.url);
    // The story without an image shows the logo; the cards' pictures load lazily.
    await expect(animals.getByRole("img", { name: PUBLISHED[0]!.title })).toHaveAttribute("src", "/logo.svg");
    await expect(animals.getByRole("img", { name: PUBLISHED[0]!.title })).toHaveAttribute("loading", "lazy");

    const space = page.getByRole("article").filter({ has: page.getByRole("link", { name: "Science & Space", exact: true }) });
    // Its featured story counts too: the same number as the category's own page.
    await expect(space).toContainText("2 stories");
    // A category with no story has no card.
    await expect(page.getByRole("link", { name: "Records & Feats", exact: true }).locator("xpath=ancestor::article")).toHaveCount(0);
    await expectNothingUnpublished(page);
  });

  test("is server-rendered: the stories are in the HTML without JavaScript", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/");
    await expect(page.getByRole("heading", { name: FEATURED.title })).toBeVisible();
    await context.close();
  });
});

test.describe("the header and footer", () => {
  test("carry the logo, categories, legal links, contact and copyright", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("link", { name: "Oddwire home" })).toHaveAttribute("href", "/");
    const nav = page.getByRole("navigation", { name: "Categories" });
    // Every category is there (the back-office journeys may reorder them meanwhile).
    const names = await nav.getByRole("link").allInnerTexts();
    expect([...names].sort()).toEqual(Object.values(CATEGORIES).map((c) => c.name).sort());
    const footer = page.getByRole("contentinfo");
    await expect(footer.getByRole("link", { name: CONTACT_EMAIL })).toHaveAttribute("href", `mailto:${CONTACT_EMAIL}`);
    await expect(footer.getByRole("link", { name: "Site Map" })).toHaveAttribute("href", "/sitemap");
    await expect(footer.getByRole("link", { name: /Facebook/ })).toHaveAttribute("target", "_blank");
    for (const name of ["Terms of Service", "Privacy Policy", "Cookie Policy", "Accessibility Statement"]) {
      await expect(footer.getByRole("link", { name })).toBeVisible();
    }
    await expect(footer).toContainText("© 2025");
  });

  test("start with a skip link that moves focus to the content", async ({ page }) => {
    await page.goto("/");
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to content" });
    await expect(skip).toBeFocused();
    await expect(skip).toBeVisible();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/#main$/);
  });
});

test.describe("a category page", () => {
  test("lists the category's stories and highlights it in the category bar", async ({ page }) => {
    await page.goto("/category/animals");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Animals");
    await expect(page.getByRole("main").getByRole("article")).toHaveCount(2);
    await expect(page.getByRole("navigation", { name: "Categories" }).getByRole("link", { name: "Animals" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await expectNothingUnpublished(page);
  });

  test("of a category without stories says so", async ({ page }) => {
    await page.goto("/category/records-feats");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Records & Feats");
    await expect(page.getByText("No stories in this category yet")).toBeVisible();
    await expect(page.getByText("Check back soon for updates!")).toBeVisible();
  });

  test("of an unknown category is titled 'Category', is empty, and answers 404", async ({ page }) => {
    const response = await page.goto("/category/no-such-thing");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Category");
    await expect(page.getByText("No stories in this category yet")).toBeVisible();
  });
});

test.describe("search", () => {
  test("without a query asks for one", async ({ page }) => {
    await page.goto("/search");
    await expect(page.getByRole("heading", { name: "No search query provided" })).toBeVisible();
    await expect(page.getByText("Please enter a search term to find stories.")).toBeVisible();
  });

  test("finds stories by title, summary or content, title matches first", async ({ page }) => {
    await page.goto("/search?q=goat");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText('Found 2 stories for "goat"');
    const titles = await page.getByRole("main").getByRole("article").getByRole("heading").allInnerTexts();
    expect(titles).toEqual([PUBLISHED[0]!.title, PUBLISHED[2]!.title]);
  });

  test("with no match shows the hint and a 'Did you mean' that works", async ({ page }) => {
    await page.goto("/search?q=parot");
    await expect(page.getByRole("heading", { name: 'No stories found for "parot"' })).toBeVisible();
    await expect(page.getByText("Try searching with different keywords or check your spelling.")).toBeVisible();
    await page.getByRole("link", { name: "parrot", exact: true }).click();
    await expect(page).toHaveURL(/\/search\?q=parrot$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText('Found 1 story for "parrot"');
  });

  test("never finds unpublished stories", async ({ page }) => {
    await page.goto("/search?q=PENDING");
    await expect(page.getByRole("heading", { name: 'No stories found for "PENDING"' })).toBeVisible();
  });
});

test.describe("the search dropdown", () => {
  test("opens with the input focused, suggests titles from three characters, and opens the chosen story by keyboard", async ({ page }) => {
    // The page's timers run on a clock the test moves, so the debounce has surely passed when it says so.
    await page.clock.install();
    const asked: string[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.pathname === "/api/suggestions") asked.push(url.searchParams.get("q") ?? "");
    });
    await gotoHydrated(page, "/");
    await page.getByRole("button", { name: "Search stories" }).click();
    const input = page.getByRole("combobox");
    await expect(input).toBeFocused();
    await input.pressSequentially("go");
    // Far past the debounce: a request for "go" would be on its way now.
    await page.clock.runFor(2_000);
    await input.pressSequentially("at");
    await page.clock.runFor(2_000);
    const options = page.getByRole("option");
    await expect(options).toHaveCount(2);
    // The suggestions for "goat" are shown, so anything asked before them has been seen: only "goat" was.
    expect(asked).toEqual(["goat"]);
    await expect(options.first()).toHaveText(PUBLISHED[0]!.title);
    await input.press("ArrowDown");
    await expect(options.first()).toHaveAttribute("aria-selected", "true");
    await input.press("ArrowDown");
    await expect(options.nth(1)).toHaveAttribute("aria-selected", "true");
    await input.press("Enter");
    await expect(page).toHaveURL(`/story/${PUBLISHED[2]!.slug}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(PUBLISHED[2]!.title);
    await expect(page.getByRole("combobox")).toHaveCount(0);
  });

  test("says when nothing matches, and closes and clears on Escape", async ({ page }) => {
    await gotoHydrated(page, "/");
    await page.getByRole("button", { name: "Search stories" }).click();
    const input = page.getByRole("combobox");
    await input.fill("zzzzz");
    await expect(page.getByText("No matching stories found")).toBeVisible();
    await input.press("Escape");
    await expect(page.getByRole("combobox")).toHaveCount(0);
    await page.getByRole("button", { name: "Search stories" }).click();
    await expect(page.getByRole("combobox")).toHaveValue("");
  });

  test("submits the search on Enter and closes on an outside click", async ({ page }) => {
    await gotoHydrated(page, "/");
    await page.getByRole("button", { name: "Search stories" }).click();
    await page.getByRole("combobox").fill("parrot");
    await page.getByRole("combobox").press("Enter");
    await expect(page).toHaveURL(/\/search\?q=parrot$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText('Found 1 story for "parrot"');
    await expect(page.getByRole("combobox")).toHaveCount(0);

    await page.getByRole("button", { name: "Search stories" }).click();
    await page.getByRole("combobox").fill("par");
    await page.getByRole("heading", { level: 1 }).click();
    await expect(page.getByRole("combobox")).toHaveCount(0);
  });
});

test("the search dropdown says 'Search error - try again' when suggestions fail, after one retry", async ({ page }) => {
  let calls = 0;
  await page.route("**/api/suggestions*", (route) => {
    calls++;
    return route.fulfill({ status: 500, body: "down" });
  });
  await gotoHydrated(page, "/");
  await page.getByRole("button", { name: "Search stories" }).click();
  await page.getByRole("combobox").fill("goat");
  await expect(page.getByText("Search error - try again")).toBeVisible();
  await expect(page.getByRole("option")).toHaveCount(0);
  expect(calls).toBe(2);
});

test.describe("a story page", () => {
  test("shows the story, links out, and describes itself to social networks", async ({ page }) => {
    const story = PUBLISHED[1]!;
    const response = await page.goto(`/story/${story.slug}`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(story.title);
    await expect(page.getByText("via Odd Planet Wire")).toBeVisible();
    const link = page.getByRole("link", { name: /Read Full Story/ });
    await expect(link).toHaveAttribute("href", story.url);
    await expect(link).toHaveAttribute("target", "_blank");
    await expect(link).toHaveAttribute("rel", /noopener/);
    await expect(page.getByRole("heading", { name: "More from Animals" })).toBeVisible();

    const base = new URL(page.url()).origin;
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${base}/story/${story.slug}`);
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", story.title);
    // Every picture, the site's own ones too, is shared as its 1200 px JPEG variant.
    await expect(page.locator('meta[property="og:image"]')).toHaveAttribute("content", new RegExp(`^${base}/img/\\d+/[0-9a-f]{8}/1200\\.jpg$`));
    await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute("content", "summary_large_image");
    const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}");
    expect(jsonLd).toMatchObject({ "@type": "NewsArticle", headline: story.title, isBasedOn: story.url });
  });

  test("'More from' shows uniform cards, a featured story's too", async ({ page }) => {
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(`/story/${PUBLISHED[2]!.slug}`);
    const more = page.getByRole("region", { name: "More from Science & Space" });
    const featured = more.getByRole("article").filter({ hasText: FEATURED.title });
    await expect(featured).toHaveCount(1);
    const [card, grid] = await Promise.all([featured.boundingBox(), more.getByRole("article").first().locator("xpath=..").boundingBox()]);
    // One of three columns, not the whole row.
    expect(card!.width).toBeLessThan(grid!.width / 2);
  });
});

for (const [label, slug] of [
  ["an unknown slug", "no-such-story"],
  ["a pending story", PENDING[0]!.slug],
] as const) {
  test(`the story page of ${label} is the 404 page`, async ({ page }) => {
    const response = await page.goto(`/story/${slug}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
  });
}

test("an unknown path is the 404 page with a way home", async ({ page }) => {
  const response = await page.goto("/this/does/not/exist");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
  await page.getByRole("main").getByRole("link", { name: "Back to Home" }).click();
  await expect(page).toHaveURL("/");
});

test("the site map lists the main pages, every category and the legal pages", async ({ page }) => {
  await page.goto("/sitemap");
  for (const name of ["Home", "Contact Us", ...Object.values(CATEGORIES).map((c) => c.name), "Privacy Policy"]) {
    await expect(page.getByRole("main").getByRole("link", { name, exact: true })).toBeVisible();
  }
});

for (const path of ["/terms-of-service", "/privacy-policy", "/cookie-policy", "/accessibility-statement", "/contact-us"]) {
  test(`${path} carries the contact e-mail and a story-tip link`, async ({ page }) => {
    await page.goto(path);
    const main = page.getByRole("main");
    await expect(main.getByRole("link", { name: CONTACT_EMAIL })).toHaveAttribute("href", `mailto:${CONTACT_EMAIL}`);
    await expect(main.getByRole("link", { name: "Send us a story tip" })).toHaveAttribute("href", /^mailto:.*subject=Story%20tip/);
  });
}

test.describe("while a page loads", () => {
  test("search shows 'Searching for \"q\"...' with six placeholder cards", async ({ page }) => {
    await gotoHydrated(page, "/search");
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/search.data*", async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole("main").getByRole("searchbox").fill("goat");
    await page.getByRole("main").getByRole("button", { name: "Search" }).click();
    await expect(page.getByText('Searching for "goat"...')).toBeVisible();
    await expect(page.locator('main [aria-hidden="true"] > div')).toHaveCount(6);
    release();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText('Found 2 stories for "goat"');
  });

  test("a category shows 'Loading stories...' and home shows 'Loading weird news...'", async ({ page }) => {
    await gotoHydrated(page, "/sitemap");
    let release: () => void = () => {};
    let held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\.data(\?|$)/, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole("navigation", { name: "Categories" }).getByRole("link", { name: "Animals" }).click();
    await expect(page.getByText("Loading stories...")).toBeVisible();
    release();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Animals");

    held = new Promise<void>((resolve) => (release = resolve));
    await page.getByRole("link", { name: "Oddwire home" }).click();
    await expect(page.getByText("Loading weird news...")).toBeVisible();
    release();
    await expect(page.getByRole("heading", { level: 1 })).toContainText("weird");
  });
});
