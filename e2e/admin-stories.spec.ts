import { openAsAdmin, SIGNED_OUT, statusFilter, useAdminSession } from "./helpers";
import { expect, test } from "@playwright/test";
import { ADMIN, BULK, CATEGORIES, EDITS, PENDING, PUBLISHED, REVIEW } from "./fixtures";

useAdminSession();

test("an editor publishes a pending story, choosing its missing category, and sees it on the public site; rejects another and finds it under Rejected Stories", async ({ page, browser }) => {
  await openAsAdmin(page, "/admin/stories?status=pending");
  await expect(statusFilter(page, "Pending")).toHaveAttribute("aria-current", "page");

  // The story has no category: Publish asks for one rather than putting it live as 'Uncategorized'.
  const walrus = page.getByRole("listitem").filter({ hasText: REVIEW[0]!.title });
  await walrus.getByRole("button", { name: `Publish ${REVIEW[0]!.title}` }).click();
  const ask = page.getByRole("dialog", { name: "Choose a category to publish" });
  await expect(ask).toContainText(REVIEW[0]!.title);
  await ask.getByLabel("Category").selectOption({ label: CATEGORIES.desk.name });
  await ask.getByRole("button", { name: "Publish" }).click();
  await expect(ask).toHaveCount(0);
  await expect(page.getByText("Story Published")).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: REVIEW[0]!.title })).toHaveCount(0);

  // The public site shows it at once: publishing clears the page cache.
  const visitor = await browser.newPage({ storageState: SIGNED_OUT });
  const response = await visitor.goto(`/story/${REVIEW[0]!.slug}`);
  expect(response?.status()).toBe(200);
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText(REVIEW[0]!.title);
  await visitor.close();

  // The story's history says who published it.
  await statusFilter(page, "Published").click();
  const published = page.getByRole("main").getByRole("listitem").filter({ hasText: REVIEW[0]!.title }).first();
  await published.getByRole("button", { name: `Details of ${REVIEW[0]!.title}` }).click();
  await expect(published).toContainText(`published by ${ADMIN.email}`);
  await statusFilter(page, "Pending").click();

  const yeti = page.getByRole("listitem").filter({ hasText: REVIEW[1]!.title });
  await yeti.getByRole("button", { name: `Reject ${REVIEW[1]!.title}` }).click();
  await expect(page.getByText("The story has been rejected and removed from the main list.")).toBeVisible();
  await statusFilter(page, "Rejected Stories").click();
  const rejected = page.getByRole("listitem").filter({ hasText: REVIEW[1]!.title });
  await expect(rejected).toBeVisible();
  await expect(rejected).toContainText("manual_rejection");
});

test("the Add New Story dialog marks its required fields, refuses a story without title and category in its own words, then publishes one", async ({ page }) => {
  await openAsAdmin(page, "/admin/stories");
  // The refusal is written in the form: a browser alert would block the page.
  const browserDialogs: string[] = [];
  page.on("dialog", (alert) => {
    browserDialogs.push(alert.message());
    void alert.dismiss();
  });
  await page.getByRole("button", { name: "Add New Story" }).click();
  const dialog = page.getByRole("dialog", { name: "Add New Story" });
  const title = dialog.getByLabel("Title");
  const category = dialog.getByLabel("Category");
  await expect(dialog.getByText("Fields marked * are required.")).toBeVisible();
  for (const field of [title, category]) {
    await expect(field).toHaveAttribute("required", "");
    await expect(field).not.toHaveAttribute("aria-invalid", "true");
  }
  await expect(dialog.getByLabel("Summary")).not.toHaveAttribute("required", "");

  await dialog.getByRole("button", { name: "Create" }).click();
  const refusal = dialog.getByRole("alert");
  await expect(refusal).toHaveText("Please fill in the title and select a category");
  await expect(title).toBeFocused();
  for (const field of [title, category]) {
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(field).toHaveAccessibleDescription("Please fill in the title and select a category");
  }

  // A title alone is not enough: the category stays marked.
  await title.fill("Hand-made: Pigeon learns to knock");
  await dialog.getByRole("button", { name: "Create" }).click();
  await expect(refusal).toBeVisible();
  await expect(category).toBeFocused();
  await expect(title).not.toHaveAttribute("aria-invalid", "true");
  await expect(category).toHaveAttribute("aria-invalid", "true");
  expect(browserDialogs).toEqual([]);

  await category.selectOption({ label: CATEGORIES.desk.name });
  await expect(refusal).toHaveCount(0);
  await dialog.getByLabel("Source URL").fill("https://handmade.example/pigeon");
  await dialog.getByRole("button", { name: "Create" }).click();
  await expect(page.getByText("Story Created")).toBeVisible();
  await expect(dialog).toHaveCount(0);
  const row = page.getByRole("listitem").filter({ hasText: "Hand-made: Pigeon learns to knock" });
  await expect(row).toContainText("published");
});

test("the story dialog is named by its title, starts at its first field, and closes on Escape or its close button, giving focus back", async ({ page }) => {
  await openAsAdmin(page, "/admin/stories");
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  const add = page.getByRole("button", { name: "Add New Story" });
  await add.click();
  const dialog = page.getByRole("dialog", { name: "Add New Story" });
  await expect(dialog.getByLabel("Title")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(add).toBeFocused();

  await add.click();
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(add).toBeFocused();
});

test("stories are reviewed by keyboard and in bulk; none goes live without a category", async ({ page }) => {
  await openAsAdmin(page, "/admin/stories?status=pending&q=BULK");
  const items = page.getByRole("main").getByRole("listitem");
  await expect(items).toHaveCount(2);

  await page.keyboard.press("?");
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toHaveCount(0);

  // p on a story without a category asks for one.
  await page.keyboard.press("j");
  await expect(items.first()).toBeFocused();
  const first = (await items.first().getByRole("heading").innerText()).trim();
  await page.keyboard.press("p");
  const ask = page.getByRole("dialog", { name: "Choose a category to publish" });
  await expect(ask).toContainText(first);
  await ask.getByLabel("Category").selectOption({ label: CATEGORIES.desk.name });
  await ask.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByText("Story Published")).toBeVisible();
  await expect(items).toHaveCount(1);
  await expect(items.first()).not.toContainText(first);

  // Bulk publish of an uncategorized story asks for its category first, and sends nothing without one.
  const second = items.first();
  const secondTitle = (await second.getByRole("heading").innerText()).trim();
  await second.getByRole("checkbox").check();
  await page.getByRole("button", { name: "Publish selected (1)" }).click();
  const choose = page.getByRole("dialog", { name: "Choose categories to publish" });
  await expect(choose.getByRole("combobox", { name: secondTitle })).toHaveValue("");
  await expect(choose).toContainText("1 story still needs a category.");
  // Publishing without one is stopped at the empty choice, which the browser marks; nothing is sent.
  await choose.getByRole("button", { name: "Publish 1 story" }).click();
  await expect(choose).toBeVisible();
  expect(await choose.getByRole("combobox", { name: secondTitle }).evaluate((select: HTMLSelectElement) => select.validity.valueMissing)).toBe(true);
  await choose.getByRole("button", { name: "Cancel" }).click();
  await expect(choose).toBeHidden();
  await expect(items).toHaveCount(1);

  // Given a category in its row, it goes through.
  await second.getByRole("combobox", { name: `Category of ${secondTitle}` }).selectOption({ label: CATEGORIES.desk.name });
  await expect(page.getByText("Category Updated")).toBeVisible();
  await second.getByRole("checkbox").check();
  await page.getByRole("button", { name: "Publish selected (1)" }).click();
  await expect(page.getByText("Published 1 story")).toBeVisible();
  await expect(page.getByText("No stories found matching your criteria.")).toBeVisible();
  for (const story of BULK) {
    const response = await page.request.get(`/story/${story.slug}`);
    expect(response.status()).toBe(200);
  }
});

test("several edits in a row each save every field, close the dialog and load the list a handful of times, and read back after a reload", async ({ page }) => {
  await openAsAdmin(page, "/admin/stories?status=pending&q=EDIT%3A");
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  let dataRequests = 0;
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.endsWith(".data")) dataRequests++;
  });
  const rows = page.getByRole("main").getByRole("listitem");
  await expect(rows).toHaveCount(EDITS.length);

  const edited = EDITS.map((story, i) => ({
    title: `${story.title} (edited)`,
    summary: `A new summary for story ${i + 1}.`,
    content: `New content for story ${i + 1}.`,
    // With a picture of the site's own, one from another site, and none.
    imageUrl: ["/demo/ufo.svg", "https://pictures.example/new-pothole.jpg", ""][i]!,
    sourceUrl: `https://moved.example/edited/${story.slug}`,
    featured: i !== 1,
  }));
  for (const [i, story] of EDITS.entries()) {
    const row = rows.filter({ hasText: story.title });
    await row.getByRole("link", { name: `Edit ${story.title}` }).click();
    const dialog = page.getByRole("dialog", { name: "Edit Story" });
    await expect(dialog.getByLabel("Image URL")).toHaveValue(story.image ?? "");
    await expect(dialog.getByLabel("Source URL")).toHaveValue(story.url);
    const want = edited[i]!;
    await dialog.getByLabel("Title").fill(want.title);
    await dialog.getByLabel("Category").selectOption({ label: CATEGORIES.desk.name });
    await dialog.getByLabel("Summary").fill(want.summary);
    await dialog.getByLabel("Content").fill(want.content);
    await dialog.getByLabel("Image URL").fill(want.imageUrl);
    await dialog.getByLabel("Source URL").fill(want.sourceUrl);
    await dialog.getByRole("switch", { name: "Featured Story" }).setChecked(want.featured);
    dataRequests = 0;
    await dialog.getByRole("button", { name: "Update" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(rows.filter({ hasText: want.title })).toHaveCount(1);
    // A moment more: a loop would keep asking for the list long after the dialog closed.
    await page.waitForTimeout(1_500);
    expect(dataRequests, `list loads after Update ${i + 1}`).toBeLessThanOrEqual(4);
    await expect(page).not.toHaveURL(/[?&]edit=/);
  }

  await page.reload();
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  for (const want of edited) {
    const row = page.getByRole("main").getByRole("listitem").filter({ hasText: want.title });
    await expect(row.getByRole("combobox", { name: `Category of ${want.title}` }).locator("option:checked")).toHaveText(CATEGORIES.desk.name);
    await row.getByRole("link", { name: `Edit ${want.title}` }).click();
    const dialog = page.getByRole("dialog", { name: "Edit Story" });
    await expect(dialog.getByLabel("Title")).toHaveValue(want.title);
    await expect(dialog.getByLabel("Category").locator("option:checked")).toHaveText(CATEGORIES.desk.name);
    await expect(dialog.getByLabel("Summary")).toHaveValue(want.summary);
    await expect(dialog.getByLabel("Content")).toHaveValue(want.content);
    await expect(dialog.getByLabel("Image URL")).toHaveValue(want.imageUrl);
    await expect(dialog.getByLabel("Source URL")).toHaveValue(want.sourceUrl);
    await expect(dialog.getByRole("switch", { name: "Featured Story" })).toBeChecked({ checked: want.featured });
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
  }
});

test("a picture the site does not have, or a source URL another story has, is refused beside its field and nothing is lost", async ({ page }) => {
  await openAsAdmin(page, "/admin/stories?status=pending&q=PENDING%3A");
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  // Both saves are refused: the story the other journeys read stays as it was.
  const story = PENDING[1]!;
  const row = page.getByRole("main").getByRole("listitem").filter({ hasText: story.title });
  await row.getByRole("link", { name: `Edit ${story.title}` }).click();
  const dialog = page.getByRole("dialog", { name: "Edit Story" });
  await dialog.getByLabel("Image URL").fill("/demo/no-such-picture.svg");
  await dialog.getByRole("button", { name: "Update" }).click();
  await expect(dialog.getByLabel("Image URL")).toHaveAttribute("aria-invalid", "true");
  await expect(dialog).toContainText("there is no picture at /demo/no-such-picture.svg on this site");

  await dialog.getByLabel("Image URL").fill("");
  await dialog.getByLabel("Source URL").fill(PUBLISHED[0]!.url);
  await dialog.getByRole("button", { name: "Update" }).click();
  await expect(dialog.getByLabel("Source URL")).toHaveAttribute("aria-invalid", "true");
  await expect(dialog).toContainText("Another story already has this source URL");
  await page.keyboard.press("Escape");
});

test("arriving 'from scrape' switches the list to Pending", async ({ page }) => {
  await openAsAdmin(page, "/admin/stories?status=published");
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  await expect(statusFilter(page, "Published")).toHaveAttribute("aria-current", "page");
  // What the scrape flow does: a client navigation to the Stories page carrying { fromScrape: true }.
  await page.evaluate(() => {
    window.history.pushState({ usr: { fromScrape: true }, key: "scrape", idx: window.history.length }, "", "/admin/stories");
    window.dispatchEvent(new PopStateEvent("popstate", { state: window.history.state }));
  });
  await expect(page).toHaveURL(/\/admin\/stories\?status=pending$/);
  await expect(statusFilter(page, "Pending")).toHaveAttribute("aria-current", "page");
});
