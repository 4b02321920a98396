import { expect, test } from "@playwright/test";
import { CATEGORIES } from "./fixtures";
import { openAsAdmin, SIGNED_OUT, useAdminSession } from "./helpers";

useAdminSession();

test("categories are reordered with the keyboard, and the public category bar follows", async ({ page, browser }) => {
  await openAsAdmin(page, "/admin/categories");
  await expect(page.getByRole("heading", { name: "Categories" })).toBeVisible();
  await expect(page.getByText("Manage your story categories and organization")).toBeVisible();
  await expect(page.getByText("Changing category slugs may affect existing URLs and story categorization.")).toBeVisible();

  const cards = page.getByRole("main").getByRole("listitem");
  await expect(cards.first()).toContainText("Order: 1");
  const handle = page.getByRole("button", { name: `Reorder ${CATEGORIES.desk.name}` });
  await handle.focus();
  await page.keyboard.press("Space");
  for (let i = 0; i < 16; i++) await page.keyboard.press("ArrowUp");
  await page.keyboard.press("Space");
  await expect(page.getByText("Order saved")).toBeVisible();
  await expect(cards.first()).toContainText(CATEGORIES.desk.name);
  await expect(cards.first()).toContainText("Order: 1");

  const visitor = await browser.newPage({ storageState: SIGNED_OUT });
  // On PostgreSQL another web process may answer first: its cached page goes when the change's
  // notice reaches it, a few milliseconds later (decision 017), so the visitor loads the page again.
  await expect(async () => {
    await visitor.goto("/");
    await expect(visitor.getByRole("navigation", { name: "Categories" }).getByRole("link").first()).toHaveText(CATEGORIES.desk.name, { timeout: 1_000 });
  }).toPass({ timeout: 10_000 });
  await visitor.close();
});

test("the add form makes the slug from the name and stays disabled until both are set", async ({ page }) => {
  await openAsAdmin(page, "/admin/categories");
  await page.getByRole("button", { name: "Add Category" }).first().click();
  const submit = page.getByRole("main").locator("form").getByRole("button", { name: "Add Category" });
  await expect(submit).toBeDisabled();
  await page.getByLabel("Category Name").first().fill("Strange Weather");
  await expect(page.getByLabel("URL Slug").first()).toHaveValue("strange-weather");
  await expect(submit).toBeEnabled();
  await page.getByLabel("URL Slug").first().fill("");
  await expect(submit).toBeDisabled();
});

test("the disabled Delete and Add Category buttons say why beside them, and Delete says what it will do once it may", async ({ page }) => {
  await openAsAdmin(page, "/admin/categories");
  const animals = CATEGORIES.animals.name;
  const card = page.getByRole("main").getByRole("listitem").filter({ has: page.getByRole("heading", { name: animals }) });
  const remove = page.getByRole("button", { name: `Delete ${animals}` });
  await expect(remove).toBeDisabled();
  const why = /^Choose where its \d+ stories go before deleting it\.$/;
  await expect(card.getByText(why)).toBeVisible();
  await expect(remove).toHaveAccessibleDescription(why);

  await page.getByLabel(`Move the stories of ${animals} to`).selectOption({ label: CATEGORIES.desk.name });
  await expect(remove).toBeEnabled();
  await expect(remove).toHaveAccessibleDescription(new RegExp(`^Its \\d+ stories will move to ${CATEGORIES.desk.name}\\.$`));

  // A category without stories may go at once: nothing to explain.
  const empty = page.getByRole("button", { name: `Delete ${CATEGORIES.empty.name}` });
  await expect(empty).toBeEnabled();
  await expect(empty).toHaveAccessibleDescription("");
  // Delete asks first in the one confirmation dialog; Escape cancels and nothing is deleted.
  await empty.click();
  const confirm = page.getByRole("dialog", { name: "Delete category" });
  await expect(confirm).toContainText(`Delete the category ${CATEGORIES.empty.name}?`);
  await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(confirm).toHaveCount(0);
  await expect(empty).toBeVisible();

  await page.getByRole("button", { name: "Add Category" }).first().click();
  const submit = page.getByRole("main").locator("form").getByRole("button", { name: "Add Category" });
  await expect(submit).toBeDisabled();
  // The browser says why in the server's own words: one rule for both (domain/categories/category-form.ts).
  await expect(page.getByText("A category needs a name and a URL slug")).toBeVisible();
  await expect(submit).toHaveAccessibleDescription("A category needs a name and a URL slug");
  await page.getByLabel("Category Name").first().fill("Strange Weather");
  await expect(submit).toBeEnabled();
  await expect(submit).toHaveAccessibleDescription("");
  await page.getByLabel("URL Slug").first().fill("");
  await expect(submit).toBeDisabled();
  await expect(submit).toHaveAccessibleDescription("A category needs a name and a URL slug");
});

test("moving a category with the keyboard is announced by the category's name, not its id", async ({ page }) => {
  // Loaded directly, so the handles are rendered by the server and then hydrated: their description's
  // id must be the same in both (the page gives dnd-kit an id from useId), and React reports no
  // hydration error. The production build does not log a mismatched attribute, so the description
  // itself is the check that the ids agree.
  const hydrationErrors: string[] = [];
  const hydration = /hydrat|Minified React error #(418|419|421|422|423|425)\b/i;
  page.on("console", (message) => void (message.type() === "error" && hydration.test(message.text()) && hydrationErrors.push(message.text())));
  page.on("pageerror", (error) => void (hydration.test(error.message) && hydrationErrors.push(error.message)));
  await openAsAdmin(page, "/admin/categories");
  await expect(page.getByRole("heading", { name: "Categories" })).toBeVisible();
  // Loaded again: the server has rendered the page before, so a count kept by the server's modules
  // (as dnd-kit's own ids are) is ahead of the fresh page's.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Categories" })).toBeVisible();
  const name = CATEGORIES.space.name;
  const live = page.locator('[id^="DndLiveRegion"]');
  const handle = page.getByRole("button", { name: `Reorder ${name}` });
  await expect(handle).toHaveAccessibleDescription(/press Space or Enter to pick it up, use the up and down arrow keys/);
  expect(hydrationErrors).toEqual([]);

  await handle.focus();
  await page.keyboard.press("Space");
  await expect(live).toHaveText(/^Picked up Science & Space, at position \d of 4\.$/);
  // One place down, or up from the bottom (the other journeys may have reordered the list).
  const from = Number((await live.innerText()).match(/position (\d)/)![1]);
  const to = from < 4 ? from + 1 : from - 1;
  for (let i = 0; i < 3; i++) await page.keyboard.press(to > from ? "ArrowDown" : "ArrowUp");
  await expect(live).toHaveText(new RegExp(`^Science & Space moved to position ${to} of 4, where .+ is\\.$`));
  await page.keyboard.press("Space");
  await expect(live).toHaveText(`Science & Space was dropped at position ${to} of 4.`);
  await expect(page.getByText("Order saved")).toBeVisible();
  await expect(page.getByRole("main").getByRole("listitem").nth(to - 1)).toContainText(name);
  expect(hydrationErrors).toEqual([]);
});
