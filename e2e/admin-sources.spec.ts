import { openAsAdmin, toast, useAdminSession, axeViolations } from "./helpers";
import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { CATEGORIES, SOURCES_PAGE } from "./fixtures";

useAdminSession();

/** The toast with this title. */
function card(page: Page, name: string) {
  return page.getByRole("main").getByRole("listitem").filter({ has: page.getByRole("heading", { name, exact: true }) });
}

test("an editor adds an RSS source with keywords, edits it, finds it by search and deletes it", async ({ page }) => {
  await openAsAdmin(page, "/admin/sources");
  await expect(page.getByText("Manage RSS feeds and content sources")).toBeVisible();

  await page.getByRole("button", { name: "Add New Source" }).click();
  const dialog = page.getByRole("dialog", { name: "Create New Source" });
  await dialog.getByLabel("Name").fill("Weird Wire Weekly");
  await dialog.getByRole("button", { name: "Create Source" }).click();
  await expect(dialog.getByText("RSS Feed URL is required for RSS sources")).toBeVisible();
  await expect(dialog.getByLabel(/RSS Feed URL/)).toHaveAttribute("aria-invalid", "true");

  // The Scraping Config box is there for Web Scraping sources only.
  await expect(dialog.getByLabel(/Scraping Config/)).toHaveCount(0);
  await dialog.getByLabel("Source Type").selectOption({ label: "Manual" });
  await expect(dialog.getByLabel(/Scraping Config/)).toHaveCount(0);

  // A web-scraping source's config must be JSON: inline error, the alert, and no saving.
  await dialog.getByLabel("Source Type").selectOption({ label: "Web Scraping" });
  await expect(dialog.getByLabel(/Scraping Config/)).toBeVisible();
  await dialog.getByLabel(/Scraping Config/).fill('{"startUrls": ["https://weird.example"],');
  await expect(dialog.getByText("Invalid JSON. Please fix before saving.")).toBeVisible();
  await expect(dialog.getByRole("alert")).toHaveText("Scraping Config JSON is invalid. Please fix it before saving.");
  await expect(dialog.getByRole("button", { name: "Create Source" })).toBeDisabled();
  await dialog.getByLabel(/Scraping Config/).fill("");
  await expect(dialog.getByRole("alert")).toHaveCount(0);
  await dialog.getByLabel("Source Type").selectOption({ label: "RSS" });
  await expect(dialog.getByLabel(/Scraping Config/)).toHaveCount(0);

  await dialog.getByLabel("Website URL").fill("https://weird-wire.example");
  await dialog.getByLabel(/RSS Feed URL/).fill("http://127.0.0.1:9/weird-wire.xml");
  const include = dialog.getByRole("group", { name: "Include keywords" });
  await include.getByRole("textbox").fill("  ghost  ");
  await include.getByRole("textbox").press("Enter");
  await include.getByRole("textbox").fill("UFO");
  await include.getByRole("button", { name: "Add include keywords" }).click();
  await include.getByRole("textbox").fill("GHOST");
  await include.getByRole("textbox").press("Enter");
  await include.getByRole("textbox").fill("bigfoot");
  await include.getByRole("textbox").press("Enter");
  await include.getByRole("button", { name: "Remove bigfoot from include keywords" }).click();
  await expect(include.getByRole("listitem")).toHaveText(["ghost", "UFO"]);
  const exclude = dialog.getByRole("group", { name: "Exclude keywords" });
  await exclude.getByRole("textbox").fill("sale");
  await exclude.getByRole("textbox").press("Enter");
  await dialog.getByLabel("Notes").fill("Found through a tip.");
  await dialog.getByRole("button", { name: "Create Source" }).click();

  // Saving reads the feed: nothing answers there, so the editor is told, and may save anyway.
  const warning = dialog.getByRole("alert").filter({ hasText: "The feed could not be read" });
  await expect(warning).toBeVisible();
  await expect(dialog.getByText(/^The feed could not be read: .+/).first()).toBeVisible();
  await expect(dialog).toBeVisible();
  await warning.getByLabel("Save anyway, without a readable feed").check();
  await dialog.getByRole("button", { name: "Create Source" }).click();

  await expect(toast(page, "Source created")).toContainText("Your new source has been added.");
  await expect(dialog).toHaveCount(0);
  const created = card(page, "Weird Wire Weekly");
  await expect(created).toContainText("Status: active");
  await expect(created).toContainText("Type: RSS");
  await expect(created.getByRole("list", { name: "Include keywords" }).getByRole("listitem")).toHaveText(["ghost", "UFO"]);
  await expect(created.getByRole("list", { name: "Exclude keywords" }).getByRole("listitem")).toHaveText(["sale"]);
  await expect(created).toContainText("Found through a tip.");
  await expect(created).toContainText("Never fetched");
  await expect(created).toContainText("nothing brought in");
  const website = created.getByRole("link", { name: /weird-wire\.example/ });
  await expect(website).toHaveAttribute("href", "https://weird-wire.example");
  await expect(website).toHaveAttribute("target", "_blank");
  await expect(website).toHaveAttribute("rel", /noopener/);
  await expect(created.getByRole("link", { name: /weird-wire\.xml/ })).toHaveAttribute("href", "http://127.0.0.1:9/weird-wire.xml");

  // Edit: a new name, a default category for its stories, and switched off.
  await created.getByRole("button", { name: "Edit Weird Wire Weekly" }).click();
  const edit = page.getByRole("dialog", { name: "Edit Source" });
  await expect(edit.getByLabel("Name")).toHaveValue("Weird Wire Weekly");
  await expect(edit.getByLabel("Default category").locator("option:checked")).toHaveText("None: the editor chooses");
  await edit.getByLabel("Default category").selectOption({ label: CATEGORIES.desk.name });
  await expect(edit.getByRole("group", { name: "Include keywords" }).getByRole("listitem")).toHaveText(["ghost", "UFO"]);
  await edit.getByLabel("Name").fill("Weird Wire Monthly");
  const status = edit.getByRole("switch", { name: /Status/ });
  await expect(status).toHaveAttribute("aria-checked", "true");
  await status.click();
  await expect(status).toHaveAttribute("aria-checked", "false");
  await edit.getByRole("button", { name: "Save Changes" }).click();
  await expect(toast(page, "Source updated")).toContainText("Your changes have been saved.");
  const edited = card(page, "Weird Wire Monthly");
  await expect(edited).toContainText("Status: inactive");
  await expect(edited).toContainText(`Stories go to: ${CATEGORIES.desk.name}`);
  await expect(card(page, "Weird Wire Weekly")).toHaveCount(0);

  // Search is by name, ignoring case, on the server.
  await page.getByPlaceholder("Search sources...").fill("wire MONTHLY");
  await page.getByPlaceholder("Search sources...").press("Enter");
  await expect(page).toHaveURL(/[?&]q=wire\+MONTHLY/);
  await expect(page.getByRole("main").getByRole("heading", { level: 2 })).toHaveText(["Weird Wire Monthly"]);
  await page.getByPlaceholder("Search sources...").fill("no such source anywhere");
  await page.getByPlaceholder("Search sources...").press("Enter");
  await expect(page.getByText("No sources found matching your criteria")).toBeVisible();
  await page.getByPlaceholder("Search sources...").fill("weird wire");
  await page.getByPlaceholder("Search sources...").press("Enter");

  // Delete asks first in the back office's one confirmation dialog (Cancel has the focus), then says what went.
  await card(page, "Weird Wire Monthly").getByRole("button", { name: "Delete Weird Wire Monthly" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete source" });
  await expect(confirm).toContainText('Delete "Weird Wire Monthly"? Its stories, rejected stories, and logs are removed too. This cannot be undone.');
  await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(toast(page, "Source deleted successfully")).toContainText("Source and all associated data (stories, rejected stories, and logs) have been removed.");
  await expect(card(page, "Weird Wire Monthly")).toHaveCount(0);
  await expect(page.getByText("No sources found matching your criteria")).toBeVisible();
});

test("the chosen tab lives in the URL and the tabs work from the keyboard", async ({ page }) => {
  await openAsAdmin(page, "/admin/sources?tab=watchlist");
  await expect(page.getByRole("tab", { name: "Watchlist" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("tabpanel", { name: "Sources" })).toBeHidden();

  await page.getByRole("tab", { name: "Watchlist" }).focus();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("tab", { name: "Sources" })).toBeFocused();
  await expect(page.getByRole("tab", { name: "Sources" })).toHaveAttribute("aria-selected", "true");
  await expect(page).not.toHaveURL(/tab=/);
  await expect(page.getByRole("tabpanel", { name: "Sources" })).toBeVisible();
  await page.keyboard.press("End");
  await page.keyboard.press("ArrowLeft");
  await expect(page.getByRole("tab", { name: "Manual Scrape" })).toBeFocused();
  await expect(page).toHaveURL(/tab=manual-scrape/);

  await page.reload();
  await expect(page.getByRole("tab", { name: "Manual Scrape" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("tab", { name: "Sources" })).toHaveAttribute("tabindex", "-1");
});

test("a source in error shows its last error; sources go out and come in as OPML", async ({ page }) => {
  await openAsAdmin(page, "/admin/sources");
  const broken = card(page, SOURCES_PAGE.broken.name);
  await expect(broken).toContainText("Status: error");
  // The scheduler may have tried the feed again since it was seeded: the error is the latest one.
  await expect(broken).toContainText(/Last error \(\d+ failures in a row\):\S+/);
  await expect(card(page, SOURCES_PAGE.scraper.name)).toContainText("Type: Web Scraping");

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export OPML" }).click()]);
  expect(download.suggestedFilename()).toBe("oddwire-sources.opml");
  const opml = readFileSync(await download.path(), "utf8");
  expect(opml).toContain('<opml version="2.0">');
  expect(opml).toContain(`<outline type="rss" text="${SOURCES_PAGE.broken.name}" title="${SOURCES_PAGE.broken.name}" xmlUrl="${SOURCES_PAGE.broken.rssFeedUrl}"`);
  expect(opml).not.toContain(SOURCES_PAGE.scraper.name);

  // Importing a file with one new feed and one already here.
  const file = `<?xml version="1.0"?><opml version="2.0"><head><title>Tips</title></head><body><outline text="Folder">
    <outline type="rss" text="Imported Oddities" xmlUrl="http://127.0.0.1:9/imported-oddities.xml" htmlUrl="https://imported-oddities.example"/>
    <outline type="rss" text="Haunted again" xmlUrl="${SOURCES_PAGE.broken.rssFeedUrl}"/></outline></body></opml>`;
  const importButton = page.getByRole("button", { name: "Import OPML" });
  await expect(importButton).toBeDisabled();
  await page.getByLabel("Choose OPML file").setInputFiles({ name: "tips.opml", mimeType: "text/x-opml", buffer: Buffer.from(file) });
  await importButton.click();
  await expect(toast(page, "Imported 1 source, skipped 1")).toContainText(`already added as "${SOURCES_PAGE.broken.name}"`);
  await expect(card(page, "Imported Oddities")).toContainText("Status: active");

  // A hostile file adds nothing and says why.
  await page
    .getByLabel("Choose OPML file")
    .setInputFiles({ name: "bomb.opml", mimeType: "text/x-opml", buffer: Buffer.from('<!DOCTYPE x [<!ENTITY a "aaaa">]><opml><body><outline text="&a;" xmlUrl="http://127.0.0.1:9/x"/></body></opml>') });
  await importButton.click();
  await expect(toast(page, "OPML import failed")).toContainText("DOCTYPE");
});

test("the Sources tab and the source dialog have no serious accessibility violation", async ({ page }) => {
  const serious = () => axeViolations(page, { seriousOnly: true });
  await openAsAdmin(page, "/admin/sources");
  await expect(card(page, SOURCES_PAGE.broken.name)).toBeVisible();
  expect(await serious()).toEqual([]);
  await card(page, SOURCES_PAGE.broken.name).getByRole("button", { name: `Edit ${SOURCES_PAGE.broken.name}` }).click();
  await expect(page.getByRole("dialog", { name: "Edit Source" })).toBeVisible();
  expect(await serious()).toEqual([]);
});
