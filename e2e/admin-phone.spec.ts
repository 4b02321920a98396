import { expect, test, type Page } from "@playwright/test";
import { gotoHydrated, openAsAdmin, signInAsAdmin, SIGNED_OUT, useAdminSession } from "./helpers";

useAdminSession();

// The back office on a phone: every section is reached through the Menu button, nothing is off to
// the side, and no page is wider than the screen.
const PHONE = { width: 390, height: 844 };
test.use({ viewport: PHONE });

const SECTIONS = [
  { label: "Dashboard", path: "/admin", heading: "Dashboard" },
  { label: "Stories", path: "/admin/stories", heading: "Stories" },
  { label: "Categories", path: "/admin/categories", heading: "Categories" },
  { label: "Sources", path: "/admin/sources", heading: "Sources" },
  { label: "URL Que", path: "/admin/url-que", heading: "URL Que" },
  { label: "Social Media", path: "/admin/social", heading: "Social Media" },
  { label: "Users", path: "/admin/users", heading: "Users" },
] as const;

const menuButton = (page: Page) => page.getByRole("button", { name: "Menu" });
const adminNav = (page: Page) => page.getByRole("navigation", { name: "Admin" });

async function openMenu(page: Page) {
  await menuButton(page).click();
  await expect(menuButton(page)).toHaveAttribute("aria-expanded", "true");
}

/** The page is no wider than the phone: nothing to scroll sideways to. */
async function expectNoSidewaysScroll(page: Page, where: string) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth), where).toBeLessThanOrEqual(PHONE.width);
}

test.describe("with a session of its own", () => {
  // It ends with Sign Out, which ends the session it signed out of: not the stored one.
  test.use({ storageState: SIGNED_OUT });

  test("every section is reached from the Menu at phone width, on screen and highlighted alone", async ({ page }) => {
    test.setTimeout(90_000);
    await signInAsAdmin(page, "/admin");
    // Closed, the menu takes no room: the page starts right under the bar.
    await expect(adminNav(page)).toBeHidden();
    await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeInViewport();

    for (const section of SECTIONS) {
      await openMenu(page);
      const link = adminNav(page).getByRole("link", { name: section.label, exact: true });
      await expect(link, `${section.label} is on screen in the open menu`).toBeInViewport({ ratio: 1 });
      await link.click();
      await expect(page).toHaveURL((url) => url.pathname === section.path && url.search === "");
      // Choosing a section closes the menu, and its page is on screen.
      await expect(menuButton(page)).toHaveAttribute("aria-expanded", "false");
      await expect(page.getByRole("heading", { name: section.heading, level: 1 })).toBeInViewport();
      await expectNoSidewaysScroll(page, section.path);

      // The menu shows where the editor is: this section, by its exact path, and no other.
      await openMenu(page);
      await expect(adminNav(page).locator("[aria-current=page]")).toHaveText([section.label]);
      await page.keyboard.press("Escape");
      await expect(adminNav(page)).toBeHidden();
    }

    // View Site opens the public site in a new tab.
    await openMenu(page);
    const viewSite = page.getByRole("link", { name: /^View Site/ });
    await expect(viewSite).toBeInViewport({ ratio: 1 });
    const [site] = await Promise.all([page.context().waitForEvent("page"), viewSite.click()]);
    await expect(site).toHaveURL((url) => url.pathname === "/");
    await site.close();

    // Sign Out is there too, and signs out.
    await openMenu(page);
    const signOut = page.getByRole("button", { name: "Sign Out" });
    await expect(signOut).toBeInViewport({ ratio: 1 });
    await signOut.click();
    await expect(page.getByRole("button", { name: "Sign In" })).toBeVisible();
  });
});

test("the Menu works from the keyboard: Enter opens it, Tab reaches the sections, Escape closes it and returns focus", async ({ page }) => {
  await openAsAdmin(page, "/admin");
  await gotoHydrated(page, "/admin/url-que");
  await menuButton(page).focus();
  await page.keyboard.press("Enter");
  await expect(menuButton(page)).toHaveAttribute("aria-expanded", "true");
  await page.keyboard.press("Tab");
  await expect(adminNav(page).getByRole("link", { name: "Dashboard" })).toBeFocused();

  await page.keyboard.press("Escape");
  await expect(adminNav(page)).toBeHidden();
  await expect(menuButton(page)).toBeFocused();
  await expect(menuButton(page)).toHaveAttribute("aria-expanded", "false");

  // Space opens it too, and Enter on a section goes there.
  await page.keyboard.press("Space");
  for (let i = 0; i < 7; i++) await page.keyboard.press("Tab");
  await expect(adminNav(page).getByRole("link", { name: "Users" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Users", level: 1 })).toBeVisible();
  await expect(menuButton(page)).toHaveAttribute("aria-expanded", "false");
});

test("no admin page is wider than a phone", async ({ page }) => {
  test.setTimeout(90_000);
  await openAsAdmin(page, "/admin");
  for (const path of [
    "/admin",
    "/admin/stories",
    "/admin/stories?status=pending",
    "/admin/stories?status=rejected",
    "/admin/categories",
    "/admin/sources",
    "/admin/sources?tab=rss-validator",
    "/admin/sources?tab=manual-scrape",
    "/admin/sources?tab=watchlist",
    "/admin/url-que",
    "/admin/social",
    "/admin/users",
  ]) {
    await gotoHydrated(page, path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectNoSidewaysScroll(page, path);
    // Nor with the menu open.
    await openMenu(page);
    await expectNoSidewaysScroll(page, `${path} with the menu open`);
  }
});

test("on a desktop the sections stand in a sidebar, with no Menu button", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openAsAdmin(page, "/admin");
  await expect(menuButton(page)).toBeHidden();
  for (const section of SECTIONS) await expect(adminNav(page).getByRole("link", { name: section.label, exact: true })).toBeInViewport();
  await expect(adminNav(page).locator("[aria-current=page]")).toHaveText(["Dashboard"]);
});
