import { axeViolations, gotoHydrated } from "./helpers";
import { expect, test } from "@playwright/test";
import { PUBLISHED } from "./fixtures";

// Every public page, in each state a visitor can reach, checked by axe: no violation of any impact.
const PAGES = [
  "/",
  "/category/animals",
  "/category/records-feats",
  "/category/no-such-thing",
  "/search",
  "/search?q=goat",
  "/search?q=parot",
  "/search?q=town",
  "/category/animals?page=2",
  `/story/${PUBLISHED[1]!.slug}`,
  "/story/no-such-story",
  "/sitemap",
  "/terms-of-service",
  "/privacy-policy",
  "/cookie-policy",
  "/accessibility-statement",
  "/contact-us",
  "/no/such/page",
];

for (const path of PAGES) {
  test(`${path} has no accessibility violation`, async ({ page }) => {
    await page.goto(path);
    expect(await axeViolations(page)).toEqual([]);
  });
}

test("on a phone, the home, category and story pages have no accessibility violation", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true });
  const page = await context.newPage();
  for (const path of ["/", "/category/animals", `/story/${PUBLISHED[1]!.slug}`]) {
    await page.goto(path);
    expect(await axeViolations(page), path).toEqual([]);
  }
  await context.close();
});

test("the open search dropdown with suggestions has no accessibility violation", async ({ page }) => {
  await gotoHydrated(page, "/");
  await page.getByRole("button", { name: "Search stories" }).click();
  await page.getByRole("combobox").fill("goat");
  await expect(page.getByRole("option").first()).toBeVisible();
  await page.getByRole("combobox").press("ArrowDown");
  expect(await axeViolations(page)).toEqual([]);
});

test("a story card can be used by keyboard alone, and shows its 'Weird' badge on focus", async ({ page }) => {
  await page.goto("/category/animals");
  const card = page.getByRole("main").getByRole("article").first();
  const badge = card.getByText("Weird", { exact: true });
  await expect(badge).toHaveCSS("opacity", "0");
  const readMore = card.getByRole("link", { name: /Read More/ });
  await readMore.focus();
  await expect(readMore).toBeFocused();
  await expect(badge).toHaveCSS("opacity", "1");
  // The focus ring is visible.
  const outline = await readMore.evaluate((el) => getComputedStyle(el).outlineStyle);
  expect(outline).not.toBe("none");
});

test("the header can be used by keyboard alone: search opens with Enter, categories follow", async ({ page }) => {
  await gotoHydrated(page, "/");
  await page.getByRole("button", { name: "Search stories" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("combobox")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("button", { name: "Search stories" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("navigation", { name: "Categories" }).getByRole("link").first()).toBeFocused();
});
