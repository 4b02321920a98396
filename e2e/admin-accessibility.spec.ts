import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { ADMIN, EDITOR } from "./fixtures";
import { gotoHydrated } from "./helpers";

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.map((n) => n.target.join(" ")).slice(0, 5) }));
}

async function signIn(page: Page, who: { email: string; password: string }) {
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

test("the sign-in screen and Access Denied have no serious accessibility violation", async ({ page }) => {
  await page.setExtraHTTPHeaders({ "x-forwarded-for": "192.0.2.100" });
  await gotoHydrated(page, "/admin");
  expect(await seriousViolations(page)).toEqual([]);
  await signIn(page, EDITOR);
  await expect(page.getByRole("heading", { name: "Access Denied" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test("the admin pages have no serious accessibility violation", async ({ page }) => {
  // axe over five pages: on a loaded 2-core machine this outlasts the default 30 s.
  test.setTimeout(60_000);
  await page.setExtraHTTPHeaders({ "x-forwarded-for": "192.0.2.101" });
  await gotoHydrated(page, "/admin");
  await signIn(page, ADMIN);
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  for (const [path, heading] of [
    ["/admin", "Dashboard"],
    ["/admin/stories", "Stories"],
    ["/admin/stories?status=rejected", "Stories"],
    ["/admin/categories", "Categories"],
    ["/admin/users", "Users"],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
    expect(await seriousViolations(page), path).toEqual([]);
  }
});

test("every tab of the Sources page has no serious accessibility violation", async ({ page }) => {
  test.setTimeout(60_000);
  await page.setExtraHTTPHeaders({ "x-forwarded-for": "192.0.2.102" });
  await gotoHydrated(page, "/admin/sources");
  await signIn(page, ADMIN);
  await expect(page.getByRole("heading", { name: "Sources", level: 1 })).toBeVisible();
  for (const tab of ["sources", "rss-validator", "manual-scrape", "watchlist"]) {
    await page.goto(`/admin/sources?tab=${tab}`);
    await expect(page.getByRole("heading", { name: "Sources", level: 1 })).toBeVisible();
    expect(await seriousViolations(page), tab).toEqual([]);
  }
});
