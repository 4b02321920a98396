import { expect, test, type Page } from "@playwright/test";
import { CATEGORIES, PUBLISHED } from "./fixtures";
import { gotoHydrated, openAsAdmin, useAdminSession } from "./helpers";

// Every screen hydrates and works under the Content-Security-Policy, and the browser reports no
// violation: React Router's inline scripts carry the page's nonce, nothing else is inline.

/** Records every CSP violation the page reports, from its first script on. */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  const fromConsole: string[] = [];
  page.on("console", (message) => {
    // A violation, or a hydration mismatch (a nonce the server and the browser render differently).
    if (/Content Security Policy|hydrat/i.test(message.text())) fromConsole.push(message.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  return async () => [...fromConsole, ...(await page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? []))];
}

test("the public pages hydrate under the policy, with a fresh nonce per render", async ({ page }) => {
  const violations = await watchViolations(page);
  for (const url of ["/", `/category/${CATEGORIES.animals.slug}`, `/story/${PUBLISHED[0]!.slug}`, "/search?q=goat", "/sitemap", "/contact-us", "/no-such-page"]) {
    const response = await gotoHydrated(page, url);
    const policy = response?.headers()["content-security-policy"] ?? "";
    expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{20,}'/);
    expect(policy).not.toContain("unsafe-inline' 'nonce");
    // Every inline script of the page carries the policy's nonce.
    const nonce = /'nonce-([^']+)'/.exec(policy)![1]!;
    const inline = await page.evaluate(() => [...document.querySelectorAll("script:not([src])")].filter((s) => !s.getAttribute("type")?.includes("json")).map((s) => (s as HTMLScriptElement).nonce));
    expect(inline.length).toBeGreaterThan(0);
    expect(new Set(inline)).toEqual(new Set([nonce]));
  }
  // Each render has a nonce of its own.
  const nonceOf = async (url: string) => /'nonce-([^']+)'/.exec((await page.request.get(url)).headers()["content-security-policy"] ?? "")?.[1];
  const [first, second] = [await nonceOf("/?render=1"), await nonceOf("/?render=2")];
  expect(first).toBeTruthy();
  expect(first).not.toBe(second);
  // Reloaded once the page was rendered again (a new nonce), the browser revalidates its copy with
  // an ETag that is still current (so the site answers 304), and the copy, with its own policy and
  // nonce, still hydrates.
  const asked: (string | undefined)[] = [];
  page.on("request", (request) => {
    if (request.url().endsWith("/sitemap") && request.isNavigationRequest()) void request.allHeaders().then((headers) => asked.push(headers["if-none-match"]));
  });
  const etag = (await page.request.get("/sitemap")).headers().etag;
  const shown = /'nonce-([^']+)'/.exec((await gotoHydrated(page, "/sitemap"))?.headers()["content-security-policy"] ?? "")?.[1];
  // The site keeps a rendered page a while: wait until it renders the sitemap again, with a new nonce.
  await expect.poll(() => nonceOf("/sitemap"), { timeout: 15_000 }).not.toBe(shown);
  await page.reload();
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  await expect.poll(() => asked.at(-1)).toBe(etag);
  expect((await page.request.get("/sitemap", { headers: { "If-None-Match": etag! } })).status()).toBe(304);
  // The search dropdown still works (its requests are to the site itself).
  await gotoHydrated(page, "/");
  await page.getByRole("button", { name: "Search stories" }).click();
  await page.getByRole("combobox").pressSequentially("goat");
  await expect(page.getByRole("option").first()).toBeVisible({ timeout: 10_000 });
  expect(await violations()).toEqual([]);
});

test.describe("as the admin", () => {
  useAdminSession();

  test("every back-office screen hydrates under the policy and reports no violation", async ({ page }) => {
    const violations = await watchViolations(page);
    await openAsAdmin(page, "/admin");
    for (const url of ["/admin", "/admin/stories", "/admin/sources", "/admin/categories", "/admin/url-que", "/admin/social", "/admin/users"]) {
      const response = await gotoHydrated(page, url);
      expect(response?.headers()["content-security-policy"]).toContain("'nonce-");
      await expect(page.getByRole("button", { name: "Sign Out" })).toBeEnabled();
    }
    // A client-side navigation and a toast (its styles are inline) work too.
    await page.getByRole("link", { name: "Stories" }).first().click();
    await expect(page).toHaveURL(/\/admin\/stories/);
    expect(await violations()).toEqual([]);
  });
});
