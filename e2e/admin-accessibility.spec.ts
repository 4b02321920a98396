import { expect, test, type Page } from "@playwright/test";
import { EDITOR } from "./fixtures";
import { addressOfThisTest, axeViolations, gotoHydrated, openAsAdmin, useAdminSession } from "./helpers";

// Every admin page, checked by axe: no violation of any impact.

async function signIn(page: Page, who: { email: string; password: string }) {
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

test("the sign-in screen and Access Denied have no accessibility violation", async ({ page }) => {
  await page.setExtraHTTPHeaders({ "x-forwarded-for": addressOfThisTest() });
  await gotoHydrated(page, "/admin");
  expect(await axeViolations(page)).toEqual([]);
  await signIn(page, EDITOR);
  await expect(page.getByRole("heading", { name: "Access Denied" })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
});

test.describe("as the admin", () => {
  useAdminSession();

  test("the admin pages have no accessibility violation", async ({ page }) => {
    // axe over ten pages: on a loaded 2-core machine this outlasts the default 30 s.
    test.setTimeout(120_000);
    await openAsAdmin(page, "/admin");
    for (const [path, heading] of [
      ["/admin", "Dashboard"],
      ["/admin/stories", "Stories"],
      ["/admin/stories?status=pending", "Stories"],
      ["/admin/stories?status=rejected", "Stories"],
      ["/admin/categories", "Categories"],
      ["/admin/url-que", "URL Que"],
      ["/admin/social", "Social Media"],
      ["/admin/users", "Users"],
    ] as const) {
      await gotoHydrated(page, path);
      await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
      expect(await axeViolations(page), path).toEqual([]);
    }
  });

  test("every tab of the Sources page has no accessibility violation", async ({ page }) => {
    test.setTimeout(60_000);
    await openAsAdmin(page, "/admin/sources");
    for (const tab of ["sources", "rss-validator", "manual-scrape", "watchlist"]) {
      await gotoHydrated(page, `/admin/sources?tab=${tab}`);
      await expect(page.getByRole("heading", { name: "Sources", level: 1 })).toBeVisible();
      expect(await axeViolations(page), tab).toEqual([]);
    }
  });
});
