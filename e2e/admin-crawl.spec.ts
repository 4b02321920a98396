import { openAsAdmin, toast, statusFilter, useAdminSession, axeViolations, TOASTS } from "./helpers";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";

useAdminSession();

const SOURCE_NAME = "Backyard Cryptid Weekly";
const ARTICLES = [
  { path: "/stories/lawn-gnome-migration", title: "CRAWLED: Lawn gnomes migrate two gardens south", lastmod: "2025-03-12T08:00:00Z" },
  { path: "/stories/singing-mailbox", title: "CRAWLED: A mailbox sings when it rains", lastmod: "2025-03-11T08:00:00Z" },
  { path: "/stories/squirrel-toll-bridge", title: "CRAWLED: Squirrels charge a toll on the garden bridge", lastmod: "2025-03-10T08:00:00Z" },
];
const PRIVATE_PATH = "/private/editor-notes";

const paragraph = (topic: string, n: number) =>
  `<p>Paragraph ${n} about ${topic.toLowerCase()}. Neighbours said nothing like it had happened on the street before, and the local council confirmed that it was looking into the matter with a mixture of concern and genuine delight.</p>`;

/** A small site of our own on 127.0.0.1: robots.txt keeping crawlers out of /private/, a sitemap and three articles. */
async function startSite(): Promise<{ url: string; requested: string[]; close: () => Promise<void> }> {
  const requested: string[] = [];
  let origin = "";
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://site").pathname;
    requested.push(path);
    const send = (status: number, type: string, body: string) => response.writeHead(status, { "content-type": type }).end(body);
    if (path === "/robots.txt") return send(200, "text/plain", `User-agent: *\nDisallow: /private/\n\nSitemap: ${origin}/sitemap.xml\n`);
    if (path === "/sitemap.xml") {
      const entries = [...ARTICLES, { path: PRIVATE_PATH, lastmod: "2025-03-13T08:00:00Z" }]
        .map((a) => `<url><loc>${origin}${a.path}</loc><lastmod>${a.lastmod}</lastmod></url>`)
        .join("");
      return send(200, "application/xml", `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries}</urlset>`);
    }
    const article = ARTICLES.find((a) => a.path === path);
    if (article) {
      const topic = article.title.replace("CRAWLED: ", "");
      return send(
        200,
        "text/html; charset=utf-8",
        `<!doctype html><html><head><title>${article.title}</title><meta property="og:title" content="${article.title}"><link rel="canonical" href="${origin}${article.path}"></head>` +
          `<body><header><nav><a href="/">Home</a></nav></header><article><h1>${article.title}</h1>${[1, 2, 3, 4, 5].map((n) => paragraph(topic, n)).join("")}</article><footer>Backyard desk</footer></body></html>`,
      );
    }
    return send(404, "text/plain", "Not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: origin, requested, close: () => new Promise((resolve) => (server.close(() => resolve()), server.closeAllConnections())) };
}

function card(page: Page, name: string) {
  return page.getByRole("main").getByRole("listitem").filter({ has: page.getByRole("heading", { name, exact: true }) });
}

test("a new editor adds a Web Scraping source, discovers its URLs, sees the run on the card, and scrapes them from the URL Que into Pending", async ({ page }) => {
  test.setTimeout(90_000);
  const site = await startSite();
  try {
    await openAsAdmin(page, "/admin/sources");
    await page.getByRole("button", { name: "Add New Source" }).click();
    const dialog = page.getByRole("dialog", { name: "Create New Source" });
    await dialog.getByLabel("Name").fill(SOURCE_NAME);
    await dialog.getByLabel("Source Type").selectOption({ label: "Web Scraping" });
    // The config's keys and the pattern syntax are explained beside the box.
    await expect(dialog.getByText("autoScrape", { exact: true })).toBeVisible();
    await expect(dialog.getByText(/Deny wins/)).toBeVisible();
    expect(await axeViolations(page, { seriousOnly: true, exclude: [TOASTS] })).toEqual([]);
    await dialog.getByLabel("Website URL").fill(site.url);
    await dialog.getByLabel(/Scraping Config/).fill('{"crawlDelay": 0}');
    // Inactive: the minute poll of due sources leaves it alone, so the run below is the button's.
    await dialog.getByRole("switch", { name: /Status/ }).click();
    await dialog.getByRole("button", { name: "Create Source" }).click();
    await expect(toast(page, "Source created")).toBeVisible();

    const created = card(page, SOURCE_NAME);
    await expect(created).toContainText("Type: Web Scraping");
    await expect(created).toContainText("Last discovery: Never run");
    const discover = created.getByRole("button", { name: `Discover now ${SOURCE_NAME}` });
    await discover.focus();
    await page.keyboard.press("Enter");

    await expect(toast(page, "Discovery complete")).toContainText("Found 4 URLs, queued 3 new, skipped 1 by robots.txt, 0 already known.", { timeout: 30_000 });
    await expect(created).toContainText(/Last discovery: [A-Z][a-z]{2} \d{1,2}, \d{4} \d{2}:\d{2} UTC/);
    await expect(created).toContainText("Last run: 4 URLs found, 3 newly queued, 1 skipped by robots.txt, 0 already known");
    await expect(created).toContainText("no errors");
    const queued = created.getByRole("link", { name: "3 URLs in the URL Que" });
    await expect(queued).toHaveAttribute("href", /\/admin\/url-que\?source=\d+$/);
    await expect(created.getByRole("button", { name: `Discover now ${SOURCE_NAME}` })).toBeEnabled();
    expect(await axeViolations(page, { seriousOnly: true, exclude: [TOASTS] })).toEqual([]);
    // robots.txt was asked first and its Disallow kept: the private page was never requested.
    expect(site.requested[0]).toBe("/robots.txt");
    expect(site.requested.filter((p) => p.startsWith("/private/"))).toEqual([]);

    // The card leads to the source's URLs in the URL Que, newest lastmod first.
    await queued.click();
    await expect(page.getByRole("heading", { name: "URL Que", level: 1 })).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/url-que\?source=\d+$/);
    const rows = page.getByRole("table", { name: "URLs in the queue" }).locator("tbody tr");
    await expect(rows).toHaveCount(ARTICLES.length);
    for (const [i, article] of ARTICLES.entries()) {
      await expect(rows.nth(i).getByRole("link", { name: `${site.url}${article.path}` })).toBeVisible();
      await expect(rows.nth(i)).toContainText(SOURCE_NAME);
      await expect(rows.nth(i)).toContainText("queued");
    }
    await page.getByRole("checkbox", { name: "Select all" }).check();
    await page.getByRole("button", { name: `Scrape Selected (${ARTICLES.length})` }).click();
    await expect(toast(page, `Scrape complete: Succeeded ${ARTICLES.length}, Failed 0.`)).toBeVisible({ timeout: 30_000 });

    // The scrape ends on Stories -> Pending, where the three articles wait.
    await expect(page).toHaveURL(/\/admin\/stories\?status=pending$/);
    await expect(statusFilter(page, "Pending")).toHaveAttribute("aria-current", "page");
    for (const article of ARTICLES) await expect(page.getByRole("heading", { name: article.title })).toBeVisible();
  } finally {
    await site.close();
  }
});
