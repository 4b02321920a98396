import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import sharp from "sharp";
import { photoJpeg } from "../integrations/images/testing";
import { CATEGORIES } from "./fixtures";
import { openAsAdmin, SIGNED_OUT, useAdminSession } from "./helpers";

// A story whose picture is on another site: the public site serves it itself, as variants under
// /img, and the reader's browser never reaches the other site.

useAdminSession();

const STORY = { title: "PICTURE: Lighthouse keeper photographs a comet", slug: "picture-lighthouse-comet" };

/** A site of our own on 127.0.0.1 with one photo; it counts the requests the Oddwire server makes to it. */
async function startPictureSite(): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  const photo = await photoJpeg(2000, 1333);
  let requests = 0;
  const server: Server = createServer((request, response) => {
    // The back office shows a story's picture from where it is; only the server's fetches count here.
    if (request.headers["user-agent"]?.startsWith("Oddwire/")) requests++;
    if (request.url === "/photos/comet.jpg") return void response.writeHead(200, { "content-type": "image/jpeg" }).end(photo);
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, requests: () => requests, close: () => new Promise((resolve) => (server.close(() => resolve()), server.closeAllConnections())) };
}

test("a story's picture from another site is served by the site, in sizes, and shared as its 1200 px JPEG", async ({ page, browser, baseURL }) => {
  const site = await startPictureSite();
  try {
    const imageUrl = `${site.url}/photos/comet.jpg`;
    await openAsAdmin(page, "/admin/stories");
    await page.getByRole("button", { name: "Add New Story" }).click();
    const dialog = page.getByRole("dialog", { name: "Add New Story" });
    await dialog.getByLabel("Title").fill(STORY.title);
    await dialog.getByLabel("Category").selectOption({ label: CATEGORIES.desk.name });
    await dialog.getByLabel("Image URL").fill(imageUrl);
    await dialog.getByLabel("Source URL").fill("https://picture.example/comet");
    await dialog.getByLabel("URL Slug").fill(STORY.slug);
    await dialog.getByRole("button", { name: "Create" }).click();
    await expect(page.getByText("Story Created")).toBeVisible();

    const visitor = await browser.newPage({ storageState: SIGNED_OUT });
    const elsewhere: string[] = [];
    visitor.on("request", (request) => {
      if (request.url().startsWith(site.url)) elsewhere.push(request.url());
    });
    await visitor.goto(`/category/${CATEGORIES.desk.slug}`);
    const card = visitor.getByRole("article").filter({ has: visitor.getByRole("heading", { name: STORY.title }) });
    const picture = card.getByRole("img", { name: STORY.title });
    const variant = /^\/img\/\d+\/[0-9a-f]{8}\//;
    await expect(picture).toHaveAttribute("src", new RegExp(`${variant.source}800$`));
    await expect(picture).toHaveAttribute("srcset", /\/320 320w, .*\/480 480w, .*\/672 672w, .*\/800 800w, .*\/1200 1200w$/);
    await expect(picture).toHaveAttribute("sizes", /358px/);
    // Its box is known before it loads: a 16:9 frame.
    await expect(picture).toHaveAttribute("width", "1200");
    await expect(picture).toHaveAttribute("height", "675");
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    expect(new URL(await picture.evaluate((img: HTMLImageElement) => img.currentSrc)).pathname).toMatch(variant);

    await card.getByRole("link", { name: STORY.title, exact: true }).click();
    await expect(visitor.getByRole("heading", { level: 1 })).toHaveText(STORY.title);
    const hero = visitor.getByRole("main").getByRole("img", { name: STORY.title }).first();
    await expect(hero).toHaveAttribute("fetchpriority", "high");
    await expect(hero).toHaveAttribute("loading", "eager");
    const shared = await visitor.locator('meta[property="og:image"]').getAttribute("content");
    expect(shared).toMatch(new RegExp(`^${baseURL}/img/\\d+/[0-9a-f]{8}/1200\\.jpg$`));
    await expect(visitor.locator('meta[property="og:image:width"]')).toHaveAttribute("content", "1200");
    await expect(visitor.locator('meta[property="og:image:height"]')).toHaveAttribute("content", "675");
    await visitor.close();

    // What a social network or a feed reader gets: a 1200 x 675 JPEG, cached for good.
    const response = await page.request.get(shared!);
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toBe("image/jpeg");
    expect(response.headers()["cache-control"]).toContain("immutable");
    expect(await sharp(await response.body()).metadata()).toMatchObject({ format: "jpeg", width: 1200, height: 675 });
    const rss = await (await page.request.get(`/category/${CATEGORIES.desk.slug}/rss.xml`)).text();
    expect(rss).toContain(`<enclosure url="${shared}" type="image/jpeg" length="0"/>`);

    // The reader never reached the other site; the server fetched the photo once for every size.
    expect(elsewhere).toEqual([]);
    expect(site.requests()).toBe(1);
  } finally {
    await site.close();
  }
});
