import { createServer, type Server } from "node:http";
import { expect, test, type Page } from "@playwright/test";
import sharp from "sharp";
import { IMAGES_BATCH, IMAGES_TEST_STORY, imagesSiteUrl } from "./fixtures";
import { gotoHydrated, openAsAdmin, toast, useAdminSession, axeViolations, TOASTS } from "./helpers";

useAdminSession();
// The runs change the stories' images: each journey expects the one before it.
test.describe.configure({ mode: "serial" });

// ---- The image site the stories point at (e2e/fixtures.ts): article pages with an og:image, and the images ----
let site: Server;
let siteUrl: string;

const jpeg = (width: number, height: number, r: number) =>
  sharp({ create: { width, height, channels: 3, background: { r, g: 120, b: 200 - r / 2 } } })
    .jpeg({ quality: 80 })
    .toBuffer();

function articlePage(title: string, image: string) {
  return (
    `<!doctype html><html><head><title>${title}</title><meta property="og:title" content="${title}">` +
    `<meta property="og:image" content="${siteUrl}${image}"></head>` +
    `<body><article><h1>${title}</h1><p>Witnesses could hardly believe their eyes.</p></article></body></html>`
  );
}

test.beforeAll(async ({ baseURL }) => {
  siteUrl = imagesSiteUrl(baseURL!);
  const [small, large, icon] = await Promise.all([jpeg(150, 100, 40), jpeg(1600, 900, 160), jpeg(32, 32, 220)]);
  const pages = new Map<string, string>([[IMAGES_TEST_STORY.path, articlePage(IMAGES_TEST_STORY.title, IMAGES_TEST_STORY.largeImage)]]);
  for (const story of IMAGES_BATCH) pages.set(story.path, articlePage(story.title, story.pageImage));
  site = createServer((req, res) => {
    const path = new URL(req.url ?? "/", siteUrl).pathname;
    const page = pages.get(path);
    if (page) {
      // The batch's pages answer slowly, so the journey can watch the run (and reload during it).
      setTimeout(() => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page), path.startsWith("/gallery/") ? 1_500 : 200);
      return;
    }
    const image = path.endsWith("-large.jpg") ? large : path.endsWith("-small.jpg") ? small : path === "/images/tiny-icon.jpg" ? icon : null;
    if (image) {
      res.writeHead(200, { "content-type": "image/jpeg", "content-length": String(image.length) }).end(req.method === "HEAD" ? undefined : image);
      return;
    }
    res.writeHead(404, { "content-type": "text/plain" }).end("not found");
  });
  const port = Number(new URL(siteUrl).port);
  await new Promise<void>((resolve, reject) => {
    site.once("error", reject);
    site.listen(port, "127.0.0.1", resolve);
  });
});

test.afterAll(async () => {
  site?.closeAllConnections();
  await new Promise((resolve) => (site ? site.close(resolve) : resolve(undefined)));
});

// ---- helpers ----
const fileName = (path: string) => path.slice(path.lastIndexOf("/") + 1).replace(".", "\\.");
const panelOf = (page: Page) => page.getByRole("region", { name: "Image Enhancement" });

/** The count the panel shows of stories needing work. */
async function needingWork(page: Page): Promise<number> {
  const line = await panelOf(page).getByText(/(story needs|stories need) image enhancement/).innerText();
  return Number(/(\d+)/.exec(line)![1]);
}

test("Analyze Images tells how many of the newest stories have images", async ({ page }) => {
  await openAsAdmin(page, "/admin");
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  const panel = panelOf(page);
  await expect(panel.getByRole("heading", { name: "Image Enhancement" })).toBeVisible();
  expect(await needingWork(page)).toBeGreaterThanOrEqual(IMAGES_BATCH.length + 1);
  expect(await axeViolations(page, { seriousOnly: true, exclude: [TOASTS] })).toEqual([]);

  await panel.getByRole("button", { name: "Analyze Images" }).click();
  await expect(toast(page, "Image Analysis Complete")).toContainText(/\d+ of 20 recent stories have images/);
});

test("the single-story test refuses a blank ID with the spec's words, by mouse and by keyboard", async ({ page }) => {
  await openAsAdmin(page, "/admin");
  const panel = panelOf(page);
  const storyId = panel.getByLabel("Story ID");

  await panel.getByRole("button", { name: "Test Story" }).click();
  await expect(toast(page, "Story ID Required")).toContainText("Please enter a story ID to test");
  await expect(storyId).toBeFocused();
  await expect(storyId).toHaveAttribute("aria-invalid", "true");
  await expect(panel.getByRole("progressbar")).toHaveCount(0);

  // Spaces are blank too; Enter in the field submits the form. A second refusal replaces the first
  // toast rather than stacking, and the toast goes after its 3 s.
  await storyId.fill("   ");
  await storyId.press("Enter");
  await expect(toast(page, "Story ID Required")).toHaveCount(1);
  await expect(toast(page, "Story ID Required")).toBeVisible();
  await expect(panel.getByRole("progressbar")).toHaveCount(0);
  await expect(toast(page, "Story ID Required")).toHaveCount(0, { timeout: 5_000 });
});

test("a single-story test finds the larger image on the story's page and stores it", async ({ page }) => {
  await openAsAdmin(page, `/admin/stories?status=pending&q=${encodeURIComponent("Hedgehog found asleep")}`);
  const card = page.getByRole("main").getByRole("listitem").filter({ hasText: IMAGES_TEST_STORY.title });
  // The file names are matched, so the check holds whether the list shows the picture as it is or through a resizing address.
  await expect(card.locator("img")).toHaveAttribute("src", new RegExp(fileName(IMAGES_TEST_STORY.smallImage)));
  await expect(card).toHaveAttribute("id", `story-${IMAGES_TEST_STORY.id}`);
  const id = String(IMAGES_TEST_STORY.id);

  await gotoHydrated(page, "/admin");
  const panel = panelOf(page);
  const before = await needingWork(page);
  await panel.getByLabel("Story ID").fill(id);
  await panel.getByRole("button", { name: "Test Story" }).click();
  const done = toast(page, "Test Complete");
  await expect(done).toContainText("Processed 1: 1 enhanced, 0 skipped, 0 failed", { timeout: 20_000 });
  await expect(done).toContainText(`New image: ${siteUrl}${IMAGES_TEST_STORY.largeImage}`);
  // The page's data is read again: one story fewer needs work, and the run's outcome is listed.
  await expect.poll(() => needingWork(page)).toBe(before - 1);
  await expect(panel.getByRole("link", { name: `New image for ${IMAGES_TEST_STORY.title}` })).toHaveAttribute("href", `${siteUrl}${IMAGES_TEST_STORY.largeImage}`);

  await gotoHydrated(page, `/admin/stories?status=pending&q=${encodeURIComponent("Hedgehog found asleep")}`);
  await expect(card.locator("img")).toHaveAttribute("src", new RegExp(fileName(IMAGES_TEST_STORY.largeImage)));
});

test("a batch of 10 asks first, shows its progress (through a reload), and ends with its numbers", async ({ page }) => {
  test.setTimeout(120_000);
  await openAsAdmin(page, "/admin");
  const panel = panelOf(page);
  const enhance10 = panel.getByRole("button", { name: "Enhance 10", exact: true });
  const before = await needingWork(page);

  // The confirmation states the count and one estimate: before any batch was timed, none; Escape cancels it.
  await enhance10.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Enhance images of 10 stories?" });
  await expect(dialog).toContainText("No estimate yet: no run has been timed.");
  await expect(dialog).not.toContainText(/minute|10-15/);
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(enhance10).toBeFocused();
  await expect(panel.getByRole("progressbar")).toHaveCount(0);

  await page.keyboard.press("Enter");
  await dialog.getByRole("button", { name: "Start" }).click();
  const bar = panel.getByRole("progressbar", { name: "Image enhancement progress" });
  await expect(bar).toBeVisible();
  await expect(panel.getByText(/^Enhancing images: \d+ of 10 stories$/)).toBeVisible({ timeout: 10_000 });
  await expect(panel.getByRole("list", { name: "Counts so far" })).toContainText(/\d+ enhanced\s*\d+ failed\s*\d+ skipped/);
  await expect(panel.getByRole("button", { name: "Cancel" })).toBeEnabled();
  // One run at a time: the buttons that start runs wait.
  await expect(enhance10).toBeDisabled();
  await expect(panel.getByRole("button", { name: /^Enhance All/ })).toBeDisabled();
  await expect(panel.getByRole("button", { name: "Test Story" })).toBeDisabled();

  // A reload picks the run up again from the page's data.
  await page.reload();
  await expect(panel.getByRole("progressbar", { name: "Image enhancement progress" })).toBeVisible();

  // The batch is the fixture's ten: one already high-resolution, one with only an icon on its page.
  const done = toast(page, "Enhancement Complete");
  // Every request to the fixture site waits its turn at least 1 s apart (the politeness gate): the batch takes about half a minute.
  await expect(done).toContainText("Processed 10: 8 enhanced, 1 skipped, 1 failed", { timeout: 90_000 });
  await expect(bar).toHaveCount(0);
  await expect(enhance10).toBeEnabled();
  await expect(panel.getByText("Processed 10: 8 enhanced, 1 skipped, 1 failed", { exact: true })).toBeVisible();
  const outcomes = panel.getByRole("list", { name: "Stories of the last run" }).getByRole("listitem");
  await expect(outcomes).toHaveCount(10);
  await expect(outcomes.filter({ hasText: IMAGES_BATCH[0]!.title })).toContainText("Already high-resolution (1600x900)");
  await expect(outcomes.filter({ hasText: IMAGES_BATCH[1]!.title })).toContainText("failed");
  // The one that failed has only an icon on its page, which will not change by itself: it leaves the count with the nine others.
  await expect.poll(() => needingWork(page)).toBe(before - 10);
});

test("a story that failed for good is listed apart with its reason and a retry; the next estimate comes from the runs' measured speed", async ({ page }) => {
  test.setTimeout(60_000);
  await openAsAdmin(page, "/admin");
  const panel = panelOf(page);
  const failed = panel.getByRole("region", { name: /^Could not be enhanced: \d+ stor(y|ies)$/ });
  const iconOnly = IMAGES_BATCH[1]!;
  const row = failed.getByRole("list", { name: "Stories that could not be enhanced" }).getByRole("listitem").filter({ hasText: iconOnly.title });
  await expect(row).toContainText("No usable image on the original page (only icons, logos or tiny images)");
  await expect(row).toContainText(`ID ${iconOnly.id}`);
  const count = Number(/(\d+) stor/.exec((await failed.getByRole("heading").innerText()) ?? "")![1]);
  expect(await axeViolations(page, { seriousOnly: true, exclude: [TOASTS] })).toEqual([]);

  // Retry one: looked at again, it fails for the same lasting reason and stays listed.
  const before = await needingWork(page);
  await row.getByRole("button", { name: `Retry ${iconOnly.title}` }).click();
  await expect(toast(page, "Retry Complete")).toContainText("Processed 1: 0 enhanced, 0 skipped, 1 failed", { timeout: 20_000 });
  await expect(row).toBeVisible();
  expect(await needingWork(page)).toBe(before);

  // Retry all asks first, with one estimate from the speed the runs so far were measured at.
  await failed.getByRole("button", { name: `Retry all (${count})` }).click();
  const retryDialog = page.getByRole("dialog", { name: `Retry ${count === 1 ? "1 story" : `${count} stories`}?` });
  await expect(retryDialog).toContainText(/Estimated time: (a few seconds|about \d+ (seconds|minutes?)) \(the last 2 runs took \d+ seconds? for 11 stories\)\./);
  await retryDialog.getByRole("button", { name: "Cancel" }).click();

  const enhance10 = panel.getByRole("button", { name: "Enhance 10", exact: true });
  await enhance10.click();
  const dialog = page.getByRole("dialog", { name: /^Enhance images of \d+ stor(y|ies)\?$/ });
  await expect(dialog.getByText(/^Estimated time: /)).toHaveCount(1);
  await expect(dialog).not.toContainText(/No estimate yet|10-15 minutes/);
  await page.keyboard.press("Escape");
});
