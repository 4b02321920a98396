import { expect, test } from "@playwright/test";
import { PENDING_STORIES, PUBLISHED_STORIES, REJECTED_TITLE } from "./fixtures";

test("the home page lists published stories, each linking out to its source", async ({ page }) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("weird");

  for (const story of PUBLISHED_STORIES) {
    const card = page.getByRole("article").filter({ hasText: story.title });
    await expect(card).toHaveCount(1);
    const link = card.getByRole("link", { name: /Read More/ });
    await expect(link).toHaveAttribute("href", story.url);
    await expect(link).toHaveAttribute("target", "_blank");
    await expect(link).toHaveAttribute("rel", /noopener/);
  }
});

test("the home page never shows pending or rejected stories", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("article")).toHaveCount(PUBLISHED_STORIES.length);
  const text = await page.locator("body").innerText();
  for (const story of PENDING_STORIES) expect(text).not.toContain(story.title);
  expect(text).not.toContain(REJECTED_TITLE);
});

test("the newest story comes first and a story without an image shows the logo", async ({ page }) => {
  await page.goto("/");
  const first = page.getByRole("article").first();
  await expect(first).toContainText(PUBLISHED_STORIES[0]!.title);
  await expect(first.getByRole("img")).toHaveAttribute("src", "/logo.svg");
});

test("the page is server-rendered: the stories are in the HTML without JavaScript", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/");
  await expect(page.getByRole("heading", { name: PUBLISHED_STORIES[1]!.title })).toBeVisible();
  await context.close();
});
