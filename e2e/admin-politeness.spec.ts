import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { openAsAdmin, toast, useAdminSession } from "./helpers";

useAdminSession();

const paragraph = `<p>The parish council met in the bell tower, where a family of owls had been voting by hooting since spring, and the motion to adopt them as councillors passed without objection.</p>`;

/** A site of our own on 127.0.0.1 whose robots.txt asks for a second between requests and keeps crawlers out of /private/. */
async function startSite(): Promise<{ url: string; arrivals: { path: string; at: number }[]; close: () => Promise<void> }> {
  const arrivals: { path: string; at: number }[] = [];
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://site").pathname;
    arrivals.push({ path, at: performance.now() });
    if (path === "/robots.txt") return response.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nCrawl-delay: 1\nDisallow: /private/\n");
    const title = `POLITE: Owls elected to the parish council ${path.slice(-1)}`;
    response
      .writeHead(200, { "content-type": "text/html; charset=utf-8" })
      .end(`<!doctype html><html><head><title>${title}</title></head><body><article><h1>${title}</h1>${paragraph.repeat(5)}</article></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, arrivals, close: () => new Promise((resolve) => (server.close(() => resolve()), server.closeAllConnections())) };
}

test("a manual scrape keeps the site's Crawl-delay and shows, for the URL robots.txt disallows, that it was not fetched and why", async ({ page }) => {
  const site = await startSite();
  try {
    await openAsAdmin(page, "/admin/sources");
    await page.getByRole("tab", { name: "Manual Scrape" }).click();
    const urls = [`${site.url}/news/owls-1`, `${site.url}/private/owls-2`, `${site.url}/news/owls-3`];
    await page.getByLabel("URLs").fill(urls.join("\n"));
    await page.getByRole("button", { name: "Scrape", exact: true }).click();

    await expect(toast(page, "Scrape complete: Inserted 2, skipped 0, failed 1.")).toBeVisible({ timeout: 30_000 });
    const refused = page.getByRole("region", { name: "Results" }).getByRole("listitem").filter({ hasText: "/private/owls-2" });
    await expect(refused).toContainText(`robots.txt disallows ${site.url}/private/owls-2`);
    await page.screenshot({ path: test.info().outputPath("manual-scrape-robots.png"), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(refused).toBeVisible();
    await refused.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath("manual-scrape-robots-phone.png") });

    expect(site.arrivals.map((a) => a.path)).toEqual(["/robots.txt", "/news/owls-1", "/news/owls-3"]);
    const gaps = site.arrivals.slice(1).map((a, i) => a.at - site.arrivals[i]!.at);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(990);
  } finally {
    await site.close();
  }
});
