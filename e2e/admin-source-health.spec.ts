import { expect, test, type Page } from "@playwright/test";
import { SOURCES_PAGE, TOOLS_SOURCE_NAME } from "./fixtures";
import { expectToastsClearOf, gotoHydrated, openAsAdmin, toast, useAdminSession } from "./helpers";

// Honest status: an ingestion run says how many sources failed and why, and leads to them; a source
// in trouble says so in its badge. The fixtures' RSS sources: the fixture feed reads fine, while the
// Haunted Gazette (nothing listens at its address) and Odd Planet Wire (a reserved .example name)
// cannot be fetched.
useAdminSession();

const ODD_PLANET = "Odd Planet Wire";

function card(page: Page, name: string) {
  return page.getByRole("main").getByRole("listitem").filter({ has: page.getByRole("heading", { name, exact: true }) });
}

test("an ingestion run whose sources fail says how many, which and why, and leads to them", async ({ page }) => {
  await openAsAdmin(page, "/admin/sources");
  await page.getByRole("button", { name: "Trigger RSS Ingestion" }).click();
  const done = toast(page, "RSS Ingestion Complete");
  // The spec's text, then our failure summary (a source the minute poll holds at that moment sits this run out).
  await expect(done).toContainText(/Processed (\d+) sources, found \d+ items, processed \d+ new stories\. (\d+ of \1|All \1) sources failed: /, { timeout: 25_000 });
  await expect(done).toContainText(`${SOURCES_PAGE.broken.name} (`);
  await expect(done).toContainText(`${ODD_PLANET} (`);
  await expect(done).not.toContainText(`${TOOLS_SOURCE_NAME} (`);
  // Long as it is, the summary leaves the page's main buttons uncovered.
  await expectToastsClearOf(page, [page.getByRole("button", { name: "Trigger RSS Ingestion" }), page.getByRole("button", { name: "Add New Source" })]);

  await done.getByRole("button", { name: "Show failing sources" }).click();
  await expect(page).toHaveURL(/\/admin\/sources\?trouble=1$/);
  await expect(page.getByText(/^\d+ sources in trouble/)).toBeVisible();
  await expect(card(page, SOURCES_PAGE.broken.name)).toBeVisible();
  await expect(card(page, ODD_PLANET)).toBeVisible();
  await expect(card(page, TOOLS_SOURCE_NAME)).toHaveCount(0);

  // An active source whose fetch failed is not shown as plainly active: its badge and its health say so.
  const failing = card(page, ODD_PLANET);
  await expect(failing).toContainText("Status: active, failing");
  await expect(failing).toContainText(/Last run failed.*:/);
  await expect(failing).toContainText("DNS_FAILURE");
  await expect(card(page, SOURCES_PAGE.broken.name)).toContainText("Status: error");

  await page.getByRole("link", { name: "Show all sources" }).click();
  await expect(card(page, TOOLS_SOURCE_NAME)).toBeVisible();
  await expect(card(page, TOOLS_SOURCE_NAME)).toContainText(/Status: active(?!, failing)/);
  await expect(page.getByRole("link", { name: /\d+ in trouble: show only them/ })).toBeVisible();

  // The dashboard's panel remembers the run with its failures, and the way to them.
  await gotoHydrated(page, "/admin");
  const panel = page.getByRole("region", { name: "RSS Ingestion" });
  await expect(panel).toContainText("Complete, with failures");
  await expect(panel).toContainText(`${SOURCES_PAGE.broken.name} (`);
  await panel.getByRole("link", { name: "Show the failing sources" }).click();
  await expect(page).toHaveURL(/\/admin\/sources\?trouble=1$/);
});
