import { openAsAdmin, toast, statusFilter, useAdminSession, axeViolations, TOASTS } from "./helpers";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { QUEUE_ARTICLES, QUEUE_FAILED_ERROR, QUEUE_RETRY_ERROR, QUEUE_ROWS, QUEUE_SOURCES } from "./fixtures";

useAdminSession();
// The journeys change the seeded queue (reject, delete, scrape): each expects the one before it.
test.describe.configure({ mode: "serial" });

/** The toast with this title, and its description. */
const rows = (page: Page) => page.getByRole("table", { name: "URLs in the queue" }).locator("tbody tr");
const row = (page: Page, url: string) => rows(page).filter({ has: page.getByRole("link", { name: url }) });
const box = (page: Page, url: string) => page.getByRole("checkbox", { name: url, exact: true });
const selectAll = (page: Page) => page.getByRole("checkbox", { name: "Select all" });
const action = (page: Page, name: "Scrape" | "Reject" | "Delete", n: number) => page.getByRole("button", { name: `${name} Selected (${n})` });

async function expectListed(page: Page, urls: string[]) {
  await expect(page.getByText(`${urls.length} ${urls.length === 1 ? "URL" : "URLs"} listed`)).toBeVisible();
  await expect(rows(page)).toHaveCount(urls.length);
  for (const url of urls) await expect(row(page, url)).toBeVisible();
}

/** Keyboard focus shows the site's focus ring (3px solid, app.css). */
async function expectFocusRing(locator: Locator) {
  await expect(locator).toBeFocused();
  expect(await locator.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe("solid");
}

test("the queue lists its URLs, and Source, Status and Search URL change the list and reset the selection", async ({ page }) => {
  await openAsAdmin(page, "/admin/url-que");
  await expect(page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "URL Que" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByLabel("Status")).toHaveValue("queued");
  await expect(page.getByLabel("Source")).toHaveValue("");
  // Every seeded queued row of both sources is listed (other journeys may queue more of their own).
  const seededQueued = [QUEUE_ROWS.rejectA, QUEUE_ROWS.rejectB, QUEUE_ROWS.deleteA, QUEUE_ROWS.deleteB, QUEUE_ROWS.duneQueued, QUEUE_ROWS.duneRetry];
  for (const url of seededQueued) await expect(row(page, url)).toBeVisible();
  for (const article of QUEUE_ARTICLES) await expect(rows(page).filter({ hasText: article.path })).toHaveCount(1);
  await expect(row(page, QUEUE_ROWS.duneScraped)).toHaveCount(0);
  const listed = await rows(page).count();
  await expect(page.getByText(`${listed} URLs listed`)).toBeVisible();

  // Each row: its URL opening in a new tab, lastmod, source, status, and its last error when it has one.
  const frog = row(page, QUEUE_ROWS.rejectA);
  await expect(frog.getByRole("link", { name: QUEUE_ROWS.rejectA })).toHaveAttribute("target", "_blank");
  await expect(frog.getByRole("link", { name: QUEUE_ROWS.rejectA })).toHaveAttribute("rel", "noopener noreferrer");
  await expect(frog).toContainText("May 20, 2025 10:15");
  await expect(frog).toContainText(QUEUE_SOURCES.marsh);
  await expect(frog).toContainText("queued");
  await expect(row(page, QUEUE_ROWS.duneRetry)).toContainText(QUEUE_RETRY_ERROR);

  // The list scrolls inside at most 60% of the viewport.
  const area = page.getByRole("table", { name: "URLs in the queue" }).locator("xpath=..");
  const { maxHeight, overflowY, viewport } = await area.evaluate((el) => ({
    maxHeight: parseFloat(getComputedStyle(el).maxHeight),
    overflowY: getComputedStyle(el).overflowY,
    viewport: window.innerHeight,
  }));
  expect(maxHeight).toBeCloseTo(viewport * 0.6, 0);
  expect(overflowY).toBe("auto");
  expect(await axeViolations(page, { seriousOnly: true, exclude: [TOASTS] })).toEqual([]);

  // Nothing selected: every action says so, on the page and without asking the server.
  await action(page, "Reject", 0).click();
  await expect(toast(page, "No selection")).toContainText("Select at least one URL.");
  await action(page, "Delete", 0).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);

  // Select all acts on the rows listed; one box off leaves it mixed.
  await selectAll(page).check();
  await expect(action(page, "Scrape", listed)).toBeVisible();
  await box(page, QUEUE_ROWS.duneQueued).uncheck();
  await expect(action(page, "Reject", listed - 1)).toBeVisible();
  expect(await selectAll(page).evaluate((el) => (el as HTMLInputElement).indeterminate)).toBe(true);

  // Source: the Dune rows, and the selection starts again.
  await page.getByLabel("Source").selectOption({ label: QUEUE_SOURCES.dune });
  await expect(page).toHaveURL(/\?source=\d+$/);
  await expectListed(page, [QUEUE_ROWS.duneQueued, QUEUE_ROWS.duneRetry]);
  await expect(action(page, "Scrape", 0)).toBeVisible();
  await expect(selectAll(page)).not.toBeChecked();
  await box(page, QUEUE_ROWS.duneRetry).check();
  await expect(action(page, "Scrape", 1)).toBeVisible();

  // Status: each filter lists its rows, and a change clears the selection.
  await page.getByLabel("Status").selectOption("failed");
  await expect(page).toHaveURL(/\?source=\d+&status=failed$/);
  await expectListed(page, [QUEUE_ROWS.duneFailed]);
  await expect(row(page, QUEUE_ROWS.duneFailed)).toContainText(QUEUE_FAILED_ERROR);
  await expect(row(page, QUEUE_ROWS.duneFailed)).toContainText("failed");
  await expect(action(page, "Scrape", 0)).toBeVisible();

  await page.getByLabel("Status").selectOption("scraped");
  await expectListed(page, [QUEUE_ROWS.duneScraped]);
  await expect(row(page, QUEUE_ROWS.duneScraped)).toContainText("scraped");

  await page.getByLabel("Status").selectOption("all");
  await expectListed(page, [QUEUE_ROWS.duneQueued, QUEUE_ROWS.duneRetry, QUEUE_ROWS.duneScraped, QUEUE_ROWS.duneFailed]);
  await box(page, QUEUE_ROWS.duneQueued).check();
  await expect(action(page, "Scrape", 1)).toBeVisible();

  // Search URL, on Enter: a piece of the URL, and the selection starts again.
  await page.getByLabel("Search URL").fill("lottery");
  await page.getByLabel("Search URL").press("Enter");
  await expectListed(page, [QUEUE_ROWS.duneRetry]);
  await expect(action(page, "Scrape", 0)).toBeVisible();
  await expect(page.getByLabel("Search URL")).toBeFocused();

  // The filters live in the address: a reload keeps them.
  await page.reload();
  await expect(page.getByLabel("Source")).toHaveValue(/\d+/);
  await expect(page.getByLabel("Status")).toHaveValue("all");
  await expect(page.getByLabel("Search URL")).toHaveValue("lottery");
  await expectListed(page, [QUEUE_ROWS.duneRetry]);

  await page.getByLabel("Search URL").fill("zebra");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page.getByRole("heading", { name: "No URLs match these filters" })).toBeVisible();
  await expect(selectAll(page)).toBeDisabled();
  await page.getByRole("link", { name: "Show every queued URL" }).click();
  await expect(page).toHaveURL(/\/admin\/url-que$/);
  await expect(rows(page)).toHaveCount(listed);
  await expect(page.getByLabel("Search URL")).toHaveValue("");
  await expect(page.getByLabel("Source")).toHaveValue("");
});

test("reject and delete act on the selection, by mouse and by keyboard, with the spec's words", async ({ page }) => {
  await openAsAdmin(page, "/admin/url-que?q=marsh-crawler");
  await expectListed(page, [QUEUE_ROWS.rejectA, QUEUE_ROWS.rejectB, QUEUE_ROWS.deleteA, QUEUE_ROWS.deleteB]);

  await box(page, QUEUE_ROWS.rejectA).check();
  await box(page, QUEUE_ROWS.rejectB).check();
  await action(page, "Reject", 2).click();
  await expect(toast(page, "Rejected")).toContainText("Rejected 2 URLs. They won't appear in future URL processing.");
  await expectListed(page, [QUEUE_ROWS.deleteA, QUEUE_ROWS.deleteB]);
  await expect(action(page, "Reject", 0)).toBeVisible();

  // By keyboard: from the search box (which holds a search, so it offers to clear it), Tab reaches the
  // buttons, then the rows' boxes; Space ticks one.
  await page.getByLabel("Search URL").focus();
  await page.keyboard.press("Tab");
  await expectFocusRing(page.getByRole("button", { name: "Clear search" }));
  await page.keyboard.press("Tab");
  await expectFocusRing(page.getByRole("button", { name: "Search", exact: true }));
  await page.keyboard.press("Tab");
  await expect(selectAll(page)).toBeFocused();
  for (const name of ["Refresh", "Scrape Selected (0)", "Reject Selected (0)", "Delete Selected (0)"]) {
    await page.keyboard.press("Tab");
    await expectFocusRing(page.getByRole("button", { name }));
  }
  await page.keyboard.press("Tab");
  await expectFocusRing(box(page, QUEUE_ROWS.deleteA));
  await page.keyboard.press("Space");
  await expect(box(page, QUEUE_ROWS.deleteA)).toBeChecked();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: QUEUE_ROWS.deleteA })).toBeFocused();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Space");
  await expect(box(page, QUEUE_ROWS.deleteB)).toBeChecked();

  // Delete asks first; Escape cancels and gives the focus back to the button.
  await action(page, "Delete", 2).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Delete URLs" });
  await expect(dialog).toContainText("Are you sure you want to permanently delete 2 URLs from the queue? This action cannot be undone.");
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  expect(await axeViolations(page, { seriousOnly: true, exclude: [TOASTS] })).toEqual([]);
  // The dialog is gone by the time Escape's keydown reaches the window, so no later key can find it
  // closed but still mounted (an Enter on Delete would then not open it again).
  await page.evaluate(() =>
    window.addEventListener("keydown", (event) => {
      if (event.key === "Escape") document.documentElement.dataset.dialogAtEscape = String(document.querySelector("dialog") !== null);
    }),
  );
  await page.keyboard.press("Escape");
  expect(await page.evaluate(() => document.documentElement.dataset.dialogAtEscape)).toBe("false");
  await expect(dialog).toHaveCount(0);
  await expect(action(page, "Delete", 2)).toBeFocused();
  await expect(rows(page)).toHaveCount(2);

  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: "Delete", exact: true })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(toast(page, "Deleted")).toContainText("Permanently removed 2 URLs from the queue.");
  await expect(page.getByRole("heading", { name: "No URLs match these filters" })).toBeVisible();
  await expect(action(page, "Delete", 0)).toBeVisible();

  // Rejected URLs stay out of the queue under every status; deleted ones are simply gone.
  await page.goto("/admin/url-que?status=all&q=marsh-crawler");
  await expect(page.getByRole("heading", { name: "No URLs match these filters" })).toBeVisible();
});

test("Scrape Selected scrapes in the background with its progress, then opens Stories on Pending with the new stories", async ({ page }) => {
  await openAsAdmin(page, "/admin/url-que?q=%2Fqueue%2F");
  await page.getByLabel("Source").selectOption({ label: QUEUE_SOURCES.marsh });
  await expect(page).toHaveURL(/source=\d+/);
  await expect(rows(page)).toHaveCount(QUEUE_ARTICLES.length);
  await selectAll(page).check();
  await action(page, "Scrape", 2).click();

  const progress = page.getByRole("status").filter({ hasText: /Scraping \d of 2\.\.\./ });
  await expect(progress).toBeVisible();
  await expect(progress.getByRole("progressbar", { name: "Scrape progress" })).toHaveAttribute("aria-valuemax", "2");
  await expect(action(page, "Reject", 2)).toBeDisabled();
  await expect(page.getByRole("button", { name: "Refresh" })).toBeDisabled();

  const done = toast(page, "Scrape complete: Succeeded 2, Failed 0. New items appear under Stories -> Pending.");
  await expect(done).toContainText("All selected URLs were processed.", { timeout: 20_000 });
  await expect(page).toHaveURL(/\/admin\/stories\?status=pending$/);
  await expect(statusFilter(page, "Pending")).toHaveAttribute("aria-current", "page");
  for (const article of QUEUE_ARTICLES) await expect(page.getByRole("heading", { name: article.title })).toBeVisible();

  // Back in the queue, the two pages are scraped and no longer queued.
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "URL Que" }).click();
  await expect(page.getByRole("heading", { name: "URL Que", level: 1 })).toBeVisible();
  await page.getByLabel("Status").selectOption("scraped");
  await page.getByLabel("Search URL").fill("/queue/");
  await page.getByLabel("Search URL").press("Enter");
  await expect(rows(page)).toHaveCount(2);
  for (const r of await rows(page).all()) await expect(r).toContainText("scraped");
  await page.getByRole("button", { name: "Refresh" }).click();
  await expect(rows(page)).toHaveCount(2);
});
