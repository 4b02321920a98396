import { expect, test, type Page } from "@playwright/test";
import { PENDING, PUBLISHED } from "./fixtures";
import { openAsAdmin, statusFilter, useAdminSession } from "./helpers";

// The back office's story list at newsroom scale: dense rows, counts on the status buttons,
// category and source filters, an order, and a search box with a clear button and 'Did you mean'.
// It only reads: the fixtures' published and PENDING stories stay as they are.
test.use({ viewport: { width: 1366, height: 900 } });
useAdminSession();

const rows = (page: Page) => page.getByRole("main").getByRole("list").first().locator(":scope > li");
const titles = (page: Page) => rows(page).getByRole("heading").allInnerTexts();
const count = async (page: Page, label: Parameters<typeof statusFilter>[1]) => Number((await statusFilter(page, label).innerText()).replace(/\D/g, ""));

test("at 1366x900 at least 15 stories fit on the screen, each with the spec's card fields", async ({ page }) => {
  await openAsAdmin(page, "/admin/stories");
  await expect(rows(page).first()).toBeVisible();
  const bottoms = await rows(page).evaluateAll((items) => items.map((li) => li.getBoundingClientRect().bottom));
  expect(bottoms.filter((bottom) => bottom <= 900).length).toBeGreaterThanOrEqual(15);

  // A pending, featured story without a source: picture, title, summary, category, date, source, ID, status, Featured.
  const row = rows(page).filter({ has: page.getByRole("heading", { name: PENDING[0]!.title }) });
  await expect(row.locator("img")).toHaveCount(1);
  await expect(row).toContainText(`Summary of ${PENDING[0]!.title}.`);
  await expect(row.getByRole("combobox", { name: `Category of ${PENDING[0]!.title}` })).toHaveValue(/\d+/);
  await expect(row.getByRole("combobox", { name: `Category of ${PENDING[0]!.title}` }).locator("option:checked")).toHaveText("Animals");
  await expect(row).toContainText(/[A-Z][a-z]{2} \d{1,2}, \d{4} · ID \d+/);
  await expect(row).toContainText("No source");
  await expect(row.getByText("pending", { exact: true })).toBeVisible();
  await expect(row.getByText("Featured", { exact: true })).toBeVisible();
  await expect(row.getByRole("button", { name: `Publish ${PENDING[0]!.title}` })).toBeVisible();
  await expect(row.getByRole("button", { name: `Reject ${PENDING[0]!.title}` })).toBeVisible();
  await expect(row.getByRole("link", { name: `Edit ${PENDING[0]!.title}` })).toBeVisible();
  await expect(row.getByRole("button", { name: `Delete ${PENDING[0]!.title}` })).toBeVisible();
  // Delete asks first in the one confirmation dialog; Cancel keeps the story and gives the focus back.
  await row.getByRole("button", { name: `Delete ${PENDING[0]!.title}` }).click();
  const confirm = page.getByRole("dialog", { name: "Delete story" });
  await expect(confirm).toContainText(`Delete "${PENDING[0]!.title}" permanently?`);
  await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toHaveCount(0);
  await expect(row.getByRole("button", { name: `Delete ${PENDING[0]!.title}` })).toBeFocused();
  await expect(row).toBeVisible();
  // Each row is one line of title over one of summary.
  const height = await row.evaluate((li) => li.getBoundingClientRect().height);
  expect(height).toBeLessThanOrEqual(48);

  // A published story with a source names it.
  await expect(rows(page).filter({ has: page.getByRole("heading", { name: PUBLISHED[1]!.title }) })).toContainText("Odd Planet Wire");
});

test("the status buttons count what they would list with the search, category and source chosen", async ({ page }) => {
  await openAsAdmin(page, "/admin/stories?q=PENDING%3A");
  expect([await count(page, "All Stories"), await count(page, "Published"), await count(page, "Pending"), await count(page, "Rejected Stories")]).toEqual([2, 0, 2, 0]);

  // The category filter applies at once, and the counts follow it.
  await page.getByLabel("Search stories").fill("");
  await page.getByRole("combobox", { name: "Category", exact: true }).selectOption({ label: "Animals" });
  await expect(page).toHaveURL(/category=\d+/);
  await expect(statusFilter(page, "All Stories")).toHaveAccessibleName("All Stories 4");
  expect(await count(page, "Published")).toBe(2);
  expect(await count(page, "Pending")).toBe(2);
  expect(new Set(await titles(page))).toEqual(new Set([PUBLISHED[0]!.title, PUBLISHED[1]!.title, PENDING[0]!.title, PENDING[1]!.title]));

  // And the source filter: the Animals stories of Odd Planet Wire are the two published ones.
  await page.getByRole("combobox", { name: "Source" }).selectOption({ label: "Odd Planet Wire" });
  await expect(page).toHaveURL(/source=\d+/);
  await expect(statusFilter(page, "All Stories")).toHaveAccessibleName("All Stories 2");
  expect(await count(page, "Pending")).toBe(0);
  await page.getByRole("combobox", { name: "Source" }).selectOption({ label: "No source (added by hand)" });
  await expect(page).toHaveURL(/source=none/);
  await expect(statusFilter(page, "All Stories")).toHaveAccessibleName("All Stories 2");
  expect(new Set(await titles(page))).toEqual(new Set([PENDING[0]!.title, PENDING[1]!.title]));

  // A status button keeps the other filters.
  await statusFilter(page, "Pending").click();
  await expect(page).toHaveURL(/status=pending/);
  await expect(page).toHaveURL(/source=none/);
  await expect(rows(page)).toHaveCount(2);
});

test("the list is sorted newest first, oldest first, or by source", async ({ page }) => {
  await openAsAdmin(page, "/admin/stories");
  await page.getByRole("combobox", { name: "Category", exact: true }).selectOption({ label: "Animals" });
  await expect(rows(page)).toHaveCount(4);
  // The fixtures were added in this order: the published Animals stories first, then the PENDING ones.
  expect(await titles(page)).toEqual([PENDING[1]!.title, PENDING[0]!.title, PUBLISHED[1]!.title, PUBLISHED[0]!.title]);
  await page.getByRole("combobox", { name: "Sort" }).selectOption({ label: "Oldest first" });
  await expect(page).toHaveURL(/sort=oldest/);
  await expect.poll(() => titles(page)).toEqual([PUBLISHED[0]!.title, PUBLISHED[1]!.title, PENDING[0]!.title, PENDING[1]!.title]);
  // By source name, newest first within a source; stories without a source last.
  await page.getByRole("combobox", { name: "Sort" }).selectOption({ label: "Source (A-Z)" });
  await expect.poll(() => titles(page)).toEqual([PUBLISHED[1]!.title, PUBLISHED[0]!.title, PENDING[1]!.title, PENDING[0]!.title]);
});

test("the search box has a clear button and offers the public search's 'Did you mean'", async ({ page }) => {
  await openAsAdmin(page, "/admin/stories?status=published");
  const box = page.getByLabel("Search stories");
  await expect(page.getByRole("button", { name: "Clear search" })).toHaveCount(0);
  await box.fill("parot");
  await box.press("Enter");
  await expect(page).toHaveURL(/q=parot/);
  await expect(page.getByText("No stories found matching your criteria.")).toBeVisible();
  await page.getByRole("link", { name: "parrot", exact: true }).click();
  await expect(page).toHaveURL(/q=parrot/);
  await expect(page).toHaveURL(/status=published/);
  await expect(rows(page).getByRole("heading", { name: PUBLISHED[1]!.title })).toBeVisible();
  await expect(box).toHaveValue("parrot");

  // Clearing empties the box, lists everything again with the status kept, and leaves the focus in the box.
  await page.getByRole("button", { name: "Clear search" }).click();
  await expect(box).toHaveValue("");
  await expect(box).toBeFocused();
  await expect(page).not.toHaveURL(/q=/);
  await expect(page).toHaveURL(/status=published/);
  // The address changes at once; the counts come with the list's data, a moment later.
  await expect.poll(() => count(page, "Published")).toBeGreaterThan(1);
});
