import { expect, test, type Page } from "@playwright/test";
import { CATEGORIES } from "./fixtures";
import { openAsAdmin, statusFilter, useAdminSession } from "./helpers";

// One count per category wherever it means the same thing: its published stories (the featured one
// included), on its page, its home card, its Categories card and the Stories filter. The back office
// adds the pending ones beside it. Science & Space holds the featured
// story and one more, both published; Animals two published and two pending.
useAdminSession();

const PUBLISHED_IN = { space: 2, animals: 2 };

function homeCard(page: Page, name: string) {
  return page.getByRole("article").filter({ has: page.getByRole("link", { name, exact: true }) });
}

test("a category's page, its Categories card and the Stories filter show the same published count", async ({ page }) => {
  for (const key of ["space", "animals"] as const) {
    await page.goto(`/category/${CATEGORIES[key].slug}`);
    await expect(page.getByText(`${PUBLISHED_IN[key]} stories`, { exact: true })).toBeVisible();
  }

  await openAsAdmin(page, "/admin/categories");
  const card = (name: string) => page.getByRole("main").getByRole("listitem").filter({ has: page.getByRole("heading", { name, exact: true }) });
  await expect(card(CATEGORIES.space.name)).toContainText(`${PUBLISHED_IN.space} published stories · Order`);
  await expect(card(CATEGORIES.animals.name)).toContainText(`${PUBLISHED_IN.animals} published stories, 2 pending · Order`);

  await page.goto("/admin/stories");
  await page.getByRole("combobox", { name: "Category", exact: true }).selectOption({ label: CATEGORIES.space.name });
  await expect(page).toHaveURL(/category=\d+/);
  await expect(statusFilter(page, "Published")).toHaveAccessibleName(`Published ${PUBLISHED_IN.space}`);
});

test("the home page's category card shows the category's published count, its featured story included", async ({ page }) => {
  await page.goto("/");
  await expect(homeCard(page, CATEGORIES.space.name)).toContainText(`${PUBLISHED_IN.space} stories`);
  await expect(homeCard(page, CATEGORIES.animals.name)).toContainText(`${PUBLISHED_IN.animals} stories`);
});
