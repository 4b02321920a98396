import { expect, test } from "@playwright/test";
import { ADMIN, CATEGORIES } from "./fixtures";

test.use({ extraHTTPHeaders: { "x-forwarded-for": "192.0.2.80" } });

test("categories are reordered with the keyboard, and the public category bar follows", async ({ page, browser }) => {
  await page.goto("/admin/categories");
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign In" }).click();
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

  const visitor = await browser.newPage();
  await visitor.goto("/");
  await expect(visitor.getByRole("navigation", { name: "Categories" }).getByRole("link").first()).toHaveText(CATEGORIES.desk.name);
  await visitor.close();
});

test("the add form makes the slug from the name and stays disabled until both are set", async ({ page }) => {
  await page.goto("/admin/categories");
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.getByRole("button", { name: "Add Category" }).first().click();
  const submit = page.getByRole("main").locator("form").getByRole("button", { name: "Add Category" });
  await expect(submit).toBeDisabled();
  await page.getByLabel("Category Name").first().fill("Strange Weather");
  await expect(page.getByLabel("URL Slug").first()).toHaveValue("strange-weather");
  await expect(submit).toBeEnabled();
  await page.getByLabel("URL Slug").first().fill("");
  await expect(submit).toBeDisabled();
});
