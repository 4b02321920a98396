import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { EDITOR, RETRY_ARTICLE, TOOLS_SITE_FILE } from "./fixtures";
import { addressOfThisTest, expectToastsClearOf, openAsAdmin, SIGNED_OUT, toast, useAdminSession } from "./helpers";

useAdminSession();

// What every back-office screen owes its user: a title of its own, toasts that leave its main buttons
// uncovered, a file picker like the other buttons, and a scrape box that keeps what failed.

/** The fixture site the server started on 127.0.0.1 (its address is written into the run's data dir). */
function site(): string {
  return (JSON.parse(readFileSync(path.join(process.env.E2E_DATA_DIR ?? "", TOOLS_SITE_FILE), "utf8")) as { url: string }).url;
}

test("every admin screen has a title of its own, and so do the sign-in and access-denied screens", async ({ page, browser }) => {
  const signedOut = await browser.newContext({ storageState: SIGNED_OUT });
  const visitor = await signedOut.newPage();
  await visitor.goto("/admin/stories");
  await expect(visitor).toHaveTitle("Sign in | Oddwire admin");
  await signedOut.close();

  await openAsAdmin(page, "/admin");
  const screens = [
    ["/admin", "Dashboard"],
    ["/admin/stories", "Stories"],
    ["/admin/categories", "Categories"],
    ["/admin/sources", "Sources"],
    ["/admin/url-que", "URL Que"],
    ["/admin/social", "Social Media"],
    ["/admin/users", "Users"],
  ] as const;
  for (const [address, name] of screens) {
    await page.goto(address);
    await expect(page).toHaveTitle(`${name} | Oddwire admin`);
  }
  // Moving through the menu retitles the page too.
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Categories" }).click();
  await expect(page).toHaveTitle("Categories | Oddwire admin");

  const context = await browser.newContext({ storageState: SIGNED_OUT, extraHTTPHeaders: { "x-forwarded-for": addressOfThisTest() } });
  const editor = await context.newPage();
  await editor.goto("/admin");
  await editor.getByLabel("Email").fill(EDITOR.email);
  await editor.getByLabel("Password").fill(EDITOR.password);
  await editor.getByRole("button", { name: "Sign In" }).click();
  await expect(editor.getByText("Access Denied")).toBeVisible();
  await expect(editor).toHaveTitle("Access denied | Oddwire admin");
  await context.close();
});

async function dismissToasts(page: Page) {
  for (const close of await page.getByRole("button", { name: "Close toast" }).all()) await close.click().catch(() => undefined);
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0);
}

for (const viewport of [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport });

    test("toasts leave the page's main buttons uncovered, at the top of a screen and where the editor scrolled a tool's button", async ({ page }) => {
      await openAsAdmin(page, "/admin/sources");
      const header = [page.getByRole("button", { name: "Trigger RSS Ingestion" }), page.getByRole("button", { name: "Add New Source" })];
      for (const [tab, name, says] of [
        ["Manual Scrape", "Scrape", "No URLs"],
        ["RSS Validator", "Validate Feed", "URL Required"],
      ] as const) {
        await page.getByRole("tab", { name: tab }).click();
        const button = page.getByRole("button", { name, exact: true });
        // From the top of the screen, with the header's buttons in view...
        await page.evaluate(() => window.scrollTo(0, 0));
        await button.click();
        await expect(toast(page, says)).toBeVisible();
        await expectToastsClearOf(page, [button, ...header]);
        await dismissToasts(page);
        // ...and with the tool's button low on the screen, as after typing into the box above it.
        await button.evaluate((element) => element.scrollIntoView({ block: "end" }));
        await button.click();
        await expect(toast(page, says)).toBeVisible();
        await expectToastsClearOf(page, [button]);
        await dismissToasts(page);
      }
    });
  });
}

test("the OPML file picker is a labelled button like the others, reached from the keyboard with a visible focus, and Import says what it waits for", async ({ page }) => {
  await openAsAdmin(page, "/admin/sources");
  const picker = page.getByLabel("Choose OPML file");
  const importButton = page.getByRole("button", { name: "Import OPML" });
  await expect(importButton).toBeDisabled();
  await expect(page.getByText("Choose a file to import")).toBeVisible();
  await expect(importButton).toHaveAccessibleDescription("Choose a file to import");

  // No browser 'Choose File' control on show: the label is the button, styled as Export OPML is.
  const label = page.locator("label").filter({ has: picker });
  const exportLink = page.getByRole("link", { name: "Export OPML" });
  for (const property of ["border-top-width", "border-top-left-radius", "font-weight", "font-size", "height"]) {
    await expect(label).toHaveCSS(property, await exportLink.evaluate((element, name) => getComputedStyle(element).getPropertyValue(name), property));
  }
  expect((await picker.boundingBox())?.width ?? 0).toBeLessThanOrEqual(1);
  await expect(page.getByText("No file chosen")).toHaveCount(0);

  // The keyboard reaches the file input itself after the search and the list's other filters (Space or
  // Enter then opens the browser's file chooser, as for any file input), and its label shows where focus is.
  await page.getByRole("button", { name: "Search", exact: true }).focus();
  const focused = () => picker.evaluate((element) => element === document.activeElement);
  for (let step = 0; step < 6 && !(await focused()); step++) await page.keyboard.press("Tab");
  await expect(picker).toBeFocused();
  await expect(picker).toHaveAttribute("type", "file");
  await expect(label).toHaveCSS("outline-style", "solid");
  await picker.setInputFiles({ name: "weird-feeds.opml", mimeType: "text/x-opml", buffer: Buffer.from("<opml/>") });
  await expect(importButton).toBeEnabled();
  await expect(page.getByText("weird-feeds.opml")).toBeVisible();
  await expect(importButton).toHaveAccessibleDescription("weird-feeds.opml");
});

test("a manual scrape keeps the URLs that failed in the box, one per line, so they can be tried again", async ({ page }) => {
  await openAsAdmin(page, "/admin/sources");
  await page.getByRole("tab", { name: "Manual Scrape" }).click();
  const box = page.getByLabel("URLs");
  const scrape = page.getByRole("button", { name: "Scrape", exact: true });
  const good = `${site()}${RETRY_ARTICLE.path}`;
  const gone = [`${site()}/gone/first-odd-story`, `${site()}/gone/second-odd-story`];
  const kept = "2 URL(s) could not be scraped and are left in the box to try again.";

  await box.fill(`${gone[0]}, ${good} ${gone[1]}`);
  await expect(page.getByText("3 valid URL(s) detected")).toBeVisible();
  await scrape.click();
  // Inserted, or already a story when this journey is retried on the same server.
  await expect(toast(page, /Scrape complete: Inserted (1, skipped 0|0, skipped 1), failed 2\./)).toBeVisible({ timeout: 20_000 });
  await expect(box).toHaveValue(gone.join("\n"));
  await expect(page.getByText("2 valid URL(s) detected")).toBeVisible();
  await expect(page.getByText(kept)).toBeVisible();
  await expect(box).toHaveAccessibleDescription(new RegExp(kept.replace(/[()]/g, "\\$&")));
  const results = page.getByRole("region", { name: "Results" }).getByRole("listitem");
  await expect(results.filter({ hasText: "Failed" })).toHaveCount(2);
  await expect(results.filter({ hasText: good })).toHaveCount(1);
  await expect(results.filter({ hasText: good })).not.toContainText("Failed");

  // Tried again: they fail again and stay.
  await scrape.click();
  await expect(toast(page, "Scrape complete: Inserted 0, skipped 0, failed 2.")).toBeVisible({ timeout: 20_000 });
  await expect(box).toHaveValue(gone.join("\n"));

  // Once the editor changes the box, the note goes; a run with nothing failing empties the box, as the spec has it.
  await box.fill(good);
  await expect(page.getByText(kept)).toHaveCount(0);
  await scrape.click();
  await expect(toast(page, "Scrape complete: Inserted 0, skipped 1, failed 0.")).toBeVisible({ timeout: 20_000 });
  await expect(box).toHaveValue("");
});
