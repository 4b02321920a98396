import { expect, test, type Page } from "@playwright/test";
import { FEATURED, PUBLISHED } from "./fixtures";

// The public pages on a phone over a slow line: the web fonts and the pictures arrive well after
// the page is drawn. Nothing may move when they do (layout shift under 0.05), and the page's largest
// picture is in the HTML, fetched at once with high priority, in a box of known size.
test.use({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });

const PAGES = [
  { name: "home", path: "/", picture: FEATURED.title },
  { name: "a category", path: "/category/animals", picture: PUBLISHED[1]!.title },
  { name: "a story", path: `/story/${PUBLISHED[1]!.slug}`, picture: PUBLISHED[1]!.title },
];

/** Holds back fonts and pictures, as a phone on a slow line receives them after the first paint. */
async function slowLine(page: Page) {
  const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  await page.route(/\.woff2$/, async (route) => {
    await later(700);
    await route.continue();
  });
  await page.route(/\/img\/|\/logo\.svg$|\/demo\//, async (route) => {
    await later(400);
    await route.continue();
  });
}

/** True once both latin web fonts are loaded (in the page: passed to page.waitForFunction and page.evaluate). */
function webFontsIn(): boolean {
  const loaded = [...document.fonts].filter((font) => font.status === "loaded").map((font) => font.family.replace(/"/g, ""));
  return loaded.includes("Inter Variable") && loaded.includes("Bricolage Grotesque Variable");
}

/** Records the page's layout shifts and its largest contentful paint from the very start. */
async function observe(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __shifts: number; __lcp: Element | null };
    w.__shifts = 0;
    w.__lcp = null;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) w.__shifts += entry.value;
      }
    }).observe({ type: "layout-shift", buffered: true });
    new PerformanceObserver((list) => {
      const entries = list.getEntries() as (PerformanceEntry & { element: Element | null })[];
      w.__lcp = entries.at(-1)?.element ?? w.__lcp;
    }).observe({ type: "largest-contentful-paint", buffered: true });
  });
}

for (const { name, path, picture } of PAGES) {
  test(`${name} on a phone does not move as fonts and pictures arrive, and fetches its largest picture first`, async ({ page }) => {
    await slowLine(page);
    await observe(page);
    const response = await page.goto(path, { waitUntil: "load" });
    // Every font and every picture the first screen asks for has arrived and been drawn. (Not
    // "networkidle": on a busy machine the slowed line keeps lazy pictures below the fold trickling in.)
    await page.waitForFunction(() => [...document.images].filter((img) => img.loading !== "lazy").every((img) => img.complete), undefined, { timeout: 20_000 });
    // The web fonts are asked for once the first screen is drawn, and swap in as they come.
    await page.waitForFunction(webFontsIn, undefined, { timeout: 20_000 });
    await page.evaluate(() => document.fonts.ready.then(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))));

    const shifts = await page.evaluate(() => (window as unknown as { __shifts: number }).__shifts);
    expect(shifts, "cumulative layout shift").toBeLessThan(0.05);

    // The largest picture: eager, high priority and sized in the server's HTML, before any script runs.
    const html = await response!.text();
    const tag = [...html.matchAll(/<img [^>]*>/g)].map((m) => m[0]).find((img) => img.includes(`alt="${picture}"`));
    expect(tag, `the picture of "${picture}" is in the HTML`).toBeDefined();
    expect(tag).toContain('loading="eager"');
    expect(tag).toContain('fetchPriority="high"');
    expect(tag).toMatch(/ width="\d+"/);
    expect(tag).toMatch(/ height="\d+"/);
    // Only one picture asks for high priority.
    expect([...html.matchAll(/<img [^>]*fetchPriority="high"[^>]*>/g)]).toHaveLength(1);

    // And the browser agrees that it is the largest paint, when a picture is.
    const lcp = await page.evaluate(() => {
      const element = (window as unknown as { __lcp: Element | null }).__lcp;
      return element instanceof HTMLImageElement ? element.alt : element?.tagName ?? null;
    });
    if (lcp !== null && !/^[A-Z0-9]+$/.test(lcp)) expect(lcp).toBe(picture);
  });
}

test("no picture in a phone's first screen waits for scrolling", async ({ page }) => {
  for (const { path } of PAGES) {
    await page.goto(path);
    const lazyInView = await page.evaluate(() =>
      [...document.querySelectorAll("main img")]
        .filter((img) => img.getBoundingClientRect().top < window.innerHeight && img.getAttribute("loading") === "lazy")
        .map((img) => img.getAttribute("alt")),
    );
    expect(lazyInView, path).toEqual([]);
  }
});

test("a public page waits for no stylesheet or script before it paints, and is interactive once loaded", async ({ page }) => {
  for (const { path } of PAGES) {
    const response = await page.goto(path, { waitUntil: "load" });
    const html = await response!.text();
    // Its own style is in the page; it links no stylesheet, preloads no script, and holds its module
    // script inert, so the parser neither waits for nor fetches any.
    expect(html, path).toMatch(/<style [^>]*data-precedence="default"[^>]*>[^<]*\.font-display/);
    expect(html, path).not.toMatch(/<link [^>]*rel="stylesheet"/);
    expect(html, path).not.toContain('rel="modulepreload"');
    expect(html, path).not.toMatch(/<script [^>]*type="module"/);
    // Nor does it ask for a web font: they come once its first screen is drawn (next test).
    expect(html, path).not.toMatch(/<link [^>]*as="font"/);

    // Once loaded, the scripts come and the page becomes interactive.
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    const timing = await page.evaluate(() => {
      const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
      const scripts = performance.getEntriesByType("resource").filter((entry) => new URL(entry.name).pathname.endsWith(".js"));
      return { load: navigation.loadEventStart, scripts: scripts.length, firstScript: Math.min(...scripts.map((entry) => entry.startTime)) };
    });
    expect(timing.scripts, path).toBeGreaterThan(0);
    expect(timing.firstScript, path).toBeGreaterThanOrEqual(timing.load);
  }
});

test("a public page starts its scripts only once its largest picture is decoded", async ({ page }) => {
  // Decoding runs off the main thread, often past the load event: scripts started at the load event
  // would take the main thread first, and the picture's paint (the page's largest) would wait for them.
  // Here the high-priority picture's decoding finishes only when the test says so.
  await page.addInitScript(() => {
    const w = window as unknown as { __releaseDecode: () => void };
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    w.__releaseDecode = release;
    const decode = HTMLImageElement.prototype.decode;
    HTMLImageElement.prototype.decode = function (this: HTMLImageElement) {
      const decoded = decode.call(this);
      return this.getAttribute("fetchpriority") === "high" ? released.then(() => decoded) : decoded;
    };
  });
  const scripts = () => page.evaluate(() => performance.getEntriesByType("resource").filter((entry) => new URL(entry.name).pathname.endsWith(".js")).length);
  for (const { path } of PAGES) {
    await page.goto(path, { waitUntil: "load" });
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 500)));
    expect(await scripts(), `${path}: no script before the picture is decoded`).toBe(0);
    await page.evaluate(() => (window as unknown as { __releaseDecode: () => void }).__releaseDecode());
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    expect(await scripts(), path).toBeGreaterThan(0);
  }
});

test("a first visit draws its text in the fallback fonts, asks for the web fonts with its scripts, and the next page has them from its first paint", async ({ page }) => {
  const [first, second] = [PAGES[1]!.path, PAGES[2]!.path];
  await page.goto(first, { waitUntil: "load" });
  await page.waitForFunction(webFontsIn, undefined, { timeout: 20_000 });
  const timing = await page.evaluate(() => {
    const resources = performance.getEntriesByType("resource");
    const start = (suffix: string) => Math.min(...resources.filter((entry) => new URL(entry.name).pathname.endsWith(suffix)).map((entry) => entry.startTime));
    const faces = [...document.fonts].map((font) => ({ family: font.family.replace(/"/g, ""), status: font.status }));
    return { load: (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).loadEventStart, font: start(".woff2"), script: start(".js"), faces };
  });
  // Not fetched beside the page: asked for after its load event, when its scripts are.
  expect(timing.font).toBeGreaterThanOrEqual(timing.load);
  expect(timing.script).toBeGreaterThanOrEqual(timing.load);
  // Until then the text was drawn in the fallback faces.
  expect(timing.faces).toContainEqual({ family: "Inter Fallback Arial", status: "loaded" });

  // The next page declares the fonts at once, from the cache: its text never uses a fallback face.
  await page.goto(second, { waitUntil: "load" });
  await page.waitForFunction(webFontsIn);
  const faces = await page.evaluate(() => [...document.fonts].filter((font) => font.status !== "unloaded").map((font) => font.family.replace(/"/g, "")));
  expect(faces.filter((family) => family.includes("Fallback"))).toEqual([]);
});

test("a public page whose pictures never arrive still becomes interactive", async ({ page }) => {
  // The pictures hang, so the load event does not come: the scripts start after LOAD_WAIT_MS anyway.
  await page.route(/\/img\//, () => new Promise(() => {}));
  await page.goto("/", { waitUntil: "domcontentloaded" });
  await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 10_000 });
  expect(await page.evaluate(() => document.readyState)).not.toBe("complete");
});

test("a back-office page keeps the whole stylesheet and its preloaded scripts", async ({ page }) => {
  const response = await page.goto("/admin");
  const html = await response!.text();
  expect(html).toMatch(/<link [^>]*rel="stylesheet"[^>]*href="\/assets\/app-[^"]+\.css"/);
  expect(html).toContain('rel="modulepreload"');
  expect(html).toMatch(/<script [^>]*type="module"/);
  // Its stylesheet declares the web fonts, and the page asks for the latin files at once.
  expect([...html.matchAll(/<link rel="preload"[^>]* as="font"[^>]*>/g)]).toHaveLength(2);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
});

test.describe("on Lighthouse's phone (412 px at 1.75 device pixels)", () => {
  test.use({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75 });

  test("the first screen's picture is the 672 px variant, not the 800 px one", async ({ page }) => {
    for (const { path, picture } of PAGES) {
      await page.goto(path, { waitUntil: "load" });
      const img = page.getByRole("img", { name: picture, exact: true }).first();
      await expect.poll(() => img.evaluate((element: HTMLImageElement) => element.currentSrc), { message: path }).toMatch(/\/672$/);
    }
  });
});
