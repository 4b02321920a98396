import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { gotoHydrated, openAsAdmin, toast, useAdminSession, axeViolations, TOASTS } from "./helpers";
import { TOOLS_ARTICLES, TOOLS_FEED_ITEMS, TOOLS_FEED_PATH, TOOLS_FEED_TITLE, TOOLS_NOT_A_FEED_PATH, TOOLS_SITE_FILE, TOOLS_SOURCE_NAME, TOOLS_WATCH_PAGE } from "./fixtures";

useAdminSession();

/** The fixture site the server started on 127.0.0.1 (its address is written into the run's data dir). */
function site(): string {
  return (JSON.parse(readFileSync(path.join(process.env.E2E_DATA_DIR ?? "", TOOLS_SITE_FILE), "utf8")) as { url: string }).url;
}

async function openSourcesTab(page: Page, name: "RSS Validator" | "Manual Scrape" | "Watchlist") {
  await openAsAdmin(page, "/admin/sources");
  await expect(page.getByRole("heading", { name: "Sources", level: 1 })).toBeVisible();
  await page.getByRole("tab", { name }).click();
}

/** The toast with this title, and its description. */
test("the RSS validator asks for a URL, describes a good feed with its samples, and names what is wrong with a page that is no feed", async ({ page }) => {
  await openSourcesTab(page, "RSS Validator");
  const url = page.getByLabel("Feed URL");

  await page.getByRole("button", { name: "Validate Feed" }).click();
  await expect(toast(page, "URL Required")).toContainText("Please enter an RSS feed URL to validate.");

  await url.fill(`  ${site()}${TOOLS_FEED_PATH}  `);
  await url.press("Enter");
  await expect(toast(page, "Valid RSS Feed")).toContainText(`Found ${TOOLS_FEED_ITEMS.length} items in the feed.`);
  const card = page.getByRole("region", { name: "Valid feed" });
  await expect(card).toContainText("RSS 2.0");
  await expect(card).toContainText(TOOLS_FEED_TITLE);
  await expect(card).toContainText("Strange but true, from the fixture desk.");
  await expect(card).toContainText("application/rss+xml");
  await expect(card).toContainText("Mar 10, 2025 09:30");
  const samples = card.getByRole("listitem");
  await expect(samples).toHaveCount(5);
  const first = samples.first().getByRole("link", { name: TOOLS_FEED_ITEMS[0] });
  await expect(first).toHaveAttribute("href", `${site()}/feed-stories/1`);
  await expect(first).toHaveAttribute("target", "_blank");
  await expect(samples.first()).toContainText("Mar 10, 2025 09:30");
  expect(await axeViolations(page, { seriousOnly: true, exclude: [TOASTS] })).toEqual([]);

  await url.fill(`${site()}${TOOLS_NOT_A_FEED_PATH}`);
  await page.getByRole("button", { name: "Validate Feed" }).click();
  await expect(toast(page, "Invalid RSS Feed")).toBeVisible();
  const invalid = page.getByRole("region", { name: "Not a valid feed" });
  await expect(invalid).toContainText("NOT_A_FEED");
  await expect(invalid).toContainText("text/html");
  await expect(invalid.getByRole("listitem")).toHaveCount(0);
});

test("a manual scrape counts the pasted URLs, stores the two articles as pending stories and leads to them in Stories", async ({ page }) => {
  await openSourcesTab(page, "Manual Scrape");
  const box = page.getByLabel("URLs");
  await expect(page.getByText("No valid URLs detected")).toBeVisible();
  await page.getByRole("button", { name: "Scrape", exact: true }).click();
  await expect(toast(page, "No URLs")).toContainText("Paste one or more valid URLs first.");

  const [one, two] = TOOLS_ARTICLES.map((article) => `${site()}${article.path}`);
  await box.fill(`${one},  not-a-url\n${two} ftp://files.example/x`);
  await expect(page.getByText("2 valid URL(s) detected")).toBeVisible();
  await page.getByLabel("Source (optional)").selectOption({ label: TOOLS_SOURCE_NAME });
  await page.getByRole("button", { name: "Scrape", exact: true }).click();

  await expect(toast(page, "Scrape complete: Inserted 2, skipped 0, failed 0.")).toBeVisible({ timeout: 20_000 });
  await expect(box).toHaveValue("");
  const results = page.getByRole("region", { name: "Results" }).getByRole("listitem");
  await expect(results).toHaveCount(2);
  await expect(results.filter({ hasText: "Inserted" })).toHaveCount(2);
  expect(await axeViolations(page, { seriousOnly: true, exclude: [TOASTS] })).toEqual([]);

  await page.getByRole("link", { name: "Review in Stories" }).click();
  await expect(page).toHaveURL(/\/admin\/stories\?status=pending/);
  for (const article of TOOLS_ARTICLES) await expect(page.getByRole("heading", { name: article.title })).toBeVisible();

  // Scraping the same page again finds it already stored.
  await gotoHydrated(page, "/admin/sources");
  await page.getByRole("tab", { name: "Manual Scrape" }).click();
  await page.getByLabel("URLs").fill(one!);
  await page.getByRole("button", { name: "Scrape", exact: true }).click();
  await expect(toast(page, "Scrape complete: Inserted 0, skipped 1, failed 0.")).toBeVisible({ timeout: 20_000 });
});

test("the watchlist refuses empty, invalid and repeated websites, titles new ones from the page itself, and survives a reload", async ({ page }) => {
  await openSourcesTab(page, "Watchlist");
  const input = page.getByLabel("Website URL");
  const add = page.getByRole("button", { name: "Add to Watchlist" });
  await expect(page.getByText("No websites in your watchlist yet.")).toBeVisible();

  await add.click();
  await expect(toast(page, "Please enter a URL")).toBeVisible();
  await input.fill("not a url");
  await add.click();
  await expect(toast(page, "Please enter a valid URL")).toBeVisible();

  const watched = `${site()}${TOOLS_WATCH_PAGE.path}`;
  await input.fill(watched);
  await add.click();
  await expect(toast(page, "Website added to watchlist")).toBeVisible();
  await expect(input).toHaveValue("");
  const item = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: TOOLS_WATCH_PAGE.title }) });
  await expect(item.getByRole("link", { name: watched })).toHaveAttribute("rel", /noopener/);

  // A page that cannot be read is listed under its URL.
  const missing = `${site()}/no-such-page`;
  await input.fill(missing);
  await add.click();
  await expect(page.getByRole("heading", { name: missing })).toBeVisible();

  await input.fill(watched);
  await add.click();
  await expect(toast(page, "Website already in watchlist")).toBeVisible();
  expect(await axeViolations(page, { seriousOnly: true, exclude: [TOASTS] })).toEqual([]);

  await page.reload();
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  await page.getByRole("tab", { name: "Watchlist" }).click();
  await expect(page.getByRole("heading", { name: TOOLS_WATCH_PAGE.title })).toBeVisible();

  await page.getByRole("button", { name: `Remove ${TOOLS_WATCH_PAGE.title} from watchlist` }).click();
  await expect(toast(page, "Website removed from watchlist")).toBeVisible();
  await expect(page.getByRole("heading", { name: TOOLS_WATCH_PAGE.title })).toHaveCount(0);
  await expect(page.getByRole("heading", { name: missing })).toBeVisible();
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("oddwire.watchlist") ?? "[]") as { url: string }[]);
  expect(stored.map((entry) => entry.url)).toEqual([missing]);
});

test("Trigger RSS Ingestion on the Sources page shows progress, then the completion toast, and the feed's stories wait under Pending", async ({ page }) => {
  await openAsAdmin(page, "/admin/sources");
  // A short run's progress can come and go between two looks: record what the page shows from the click on.
  const shown = await recordTexts(page, /^(Ingesting RSS\.\.\.|Starting\.\.\.|Waiting to start\.\.\.|Processing \d+ of \d+ sources\.\.\.)$/);
  await page.getByRole("button", { name: "Trigger RSS Ingestion" }).click();
  await expect(toast(page, "RSS Ingestion Complete")).toContainText(/Processed \d+ sources, found \d+ items, processed \d+ new stories/, { timeout: 25_000 });
  await expect(page.getByRole("button", { name: "Trigger RSS Ingestion" })).toBeEnabled();
  const seen = await shown();
  expect(seen).toContain("Ingesting RSS... (disabled)");
  expect(seen.filter((text) => !text.startsWith("Ingesting RSS")).length).toBeGreaterThan(0);

  await gotoHydrated(page, "/admin/stories?status=pending&q=FEED%3A");
  for (const title of TOOLS_FEED_ITEMS) await expect(page.getByRole("heading", { name: title })).toBeVisible();

  // The dashboard's panel remembers the run in this browser, and runs another with canonical URLs.
  await gotoHydrated(page, "/admin");
  const panel = page.getByRole("region", { name: "RSS Ingestion" });
  await expect(panel).toContainText("Complete");
  await expect(panel).toContainText(/\d+ sources processed, \d+ items found, \d+ new stories/);
  expect(await axeViolations(page, { seriousOnly: true, exclude: [TOASTS] })).toEqual([]);
  await panel.getByLabel("Use canonical URLs").check();
  await panel.getByRole("button", { name: "Trigger RSS Ingestion" }).click();
  await expect(toast(page, "RSS Ingestion Complete")).toContainText(/processed 0 new stories/, { timeout: 25_000 });
});

test("a page reloaded while an ingestion runs picks the job up again, and a job that no longer exists ends in the failure toast", async ({ page }) => {
  await openAsAdmin(page, "/admin/sources");
  // Queued from this page's own session through the page's action, as the button does (but without the
  // page following it), then the page is reloaded before it reports.
  const jobId = await page.evaluate(async () => {
    const response = await fetch("/admin/sources.data", { method: "POST", body: new URLSearchParams({ intent: "ingest" }) });
    // The answer is React Router's encoded data: the job id is its one UUID.
    return /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/.exec(await response.text())?.[0] ?? "none";
  });
  expect(jobId).not.toBe("none");
  await page.evaluate((id) => sessionStorage.setItem("oddwire.ingestion-job", JSON.stringify({ jobId: id })), jobId);
  // Watched from the moment the page is committed: on a busy machine the page's pictures and fonts
  // can hold its load event back longer than a toast stays.
  await page.reload({ waitUntil: "commit" });
  await expect(toast(page, "RSS Ingestion Complete")).toBeVisible({ timeout: 25_000 });
  expect(await page.evaluate(() => sessionStorage.getItem("oddwire.ingestion-job"))).toBeNull();

  const consoleErrors: string[] = [];
  page.on("console", (message) => void (message.type() === "error" && consoleErrors.push(message.text())));
  await page.evaluate(() => sessionStorage.setItem("oddwire.ingestion-job", JSON.stringify({ jobId: "no-such-job" })));
  await page.reload({ waitUntil: "commit" });
  // A reload, hydration and one poll: slow on a machine busy with the other worker's journeys.
  await expect(toast(page, "RSS Ingestion Failed")).toContainText("Check the console for error details.", { timeout: 20_000 });
  expect(consoleErrors.join("\n")).toContain("RSS ingestion failed");
  await expect(page.getByRole("button", { name: "Trigger RSS Ingestion" })).toBeEnabled();
});

/**
 * Records, from now on, each distinct text matching `pattern` that a paragraph or a button of the page
 * shows (a button's noted "(disabled)" when it is), and gives a way to read them back.
 */
async function recordTexts(page: Page, pattern: RegExp): Promise<() => Promise<string[]>> {
  await page.evaluate((source) => {
    const match = new RegExp(source);
    const seen: string[] = [];
    (window as unknown as { shownTexts: string[] }).shownTexts = seen;
    const look = () => {
      for (const element of document.querySelectorAll("p, button")) {
        const text = element.textContent?.trim() ?? "";
        if (!match.test(text)) continue;
        const entry = element instanceof HTMLButtonElement && element.disabled ? `${text} (disabled)` : text;
        if (!seen.includes(entry)) seen.push(entry);
      }
    };
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  }, pattern.source);
  return () => page.evaluate(() => (window as unknown as { shownTexts: string[] }).shownTexts);
}
