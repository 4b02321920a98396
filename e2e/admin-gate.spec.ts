import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import routes from "../app/routes";
import { ADMIN, EDITOR, PROMOTABLE } from "./fixtures";
import { gotoHydrated } from "./helpers";

type RouteEntry = { path?: string; index?: boolean; children?: RouteEntry[] };

// Every page under /admin, read from the route table: a route added later is swept too.
function adminPaths(entries: RouteEntry[], parent = ""): string[] {
  return entries.flatMap((entry) => {
    const path = entry.index ? parent : [parent, entry.path].filter(Boolean).join("/");
    const own = entry.index || (entry.path && !entry.children?.some((c) => c.index)) ? [path] : [];
    return [...own, ...adminPaths(entry.children ?? [], path)];
  });
}
const ADMIN_PAGES = [...new Set(adminPaths(routes as RouteEntry[]).filter((p) => p === "admin" || p.startsWith("admin/")))].map((p) => `/${p}`);

// Resource routes (JSON endpoints, the OPML download) have no page to render.
const isResource = (path: string) => path.startsWith("/admin/api/") || path.endsWith(".opml");

// What only an admin may see: the dashboard's captions and the admin's own address (sidebar, Users page).
function expectNoAdminData(body: string) {
  expect(body).not.toContain("Live on the website");
  expect(body).not.toContain(ADMIN.email);
}

async function signIn(request: APIRequestContext, baseURL: string, who: { email: string; password: string }) {
  const response = await request.post("/api/auth/sign-in/email", { data: who, headers: { origin: baseURL } });
  expect(response.status(), `sign-in of ${who.email}`).toBe(200);
}

async function signInThroughForm(page: Page, who: { email: string; password: string }) {
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

test("the sweep covers the admin pages of the route table", () => {
  expect(ADMIN_PAGES).toContain("/admin");
});

test.describe("every admin page and its data", () => {
  for (const path of ADMIN_PAGES) {
    const dataUrl = `${path}.data`;
    test(`${path}: anonymous 401, non-admin 403, admin 200, never a byte of admin data before`, async ({ playwright, baseURL }) => {
      // Each context comes from its own address, as sign-in is rate limited per address.
      const from = (n: number) => ({ baseURL, extraHTTPHeaders: { "x-forwarded-for": `198.51.100.${n}` } });
      const anonymous = await playwright.request.newContext(from(1));
      for (const url of [path, dataUrl]) {
        const response = await anonymous.get(url);
        expect(response.status(), url).toBe(401);
        expectNoAdminData(await response.text());
        const post = await anonymous.post(url, { form: { intent: "x" }, headers: { origin: baseURL! } });
        expect([401, 405], `POST ${url}`).toContain(post.status());
        expectNoAdminData(await post.text());
      }
      const editor = await playwright.request.newContext(from(2 + ADMIN_PAGES.indexOf(path) * 2));
      await signIn(editor, baseURL!, EDITOR);
      for (const url of [path, dataUrl]) {
        const response = await editor.get(url);
        expect(response.status(), url).toBe(403);
        expectNoAdminData(await response.text());
        const post = await editor.post(url, { form: { intent: "x" }, headers: { origin: baseURL! } });
        expect([403, 405], `POST ${url}`).toContain(post.status());
        expectNoAdminData(await post.text());
      }
      const admin = await playwright.request.newContext(from(3 + ADMIN_PAGES.indexOf(path) * 2));
      await signIn(admin, baseURL!, ADMIN);
      if (isResource(path)) {
        // Endpoints answer an admin's bare GET by their own rules (missing input, no such job, POST only): never 401 or 403.
        expect([200, 400, 404, 405], path).toContain((await admin.get(path)).status());
      } else {
        expect((await admin.get(path)).status()).toBe(200);
        expect((await admin.get(dataUrl)).status()).toBe(200);
      }
      // A change from another site is refused even for an admin (CSRF).
      const target = isResource(path) ? path : dataUrl;
      const forged = await admin.post(target, { form: { intent: "x" }, headers: { origin: "https://evil.example" } });
      expect([400, 403, 405], `forged POST ${target}`).toContain(forged.status());
      await Promise.all([anonymous.dispose(), editor.dispose(), admin.dispose()]);
    });
  }
});

test.describe("the admin sign-in screen", () => {
  test.use({ extraHTTPHeaders: { "x-forwarded-for": "192.0.2.50" } });
  test("toggles between sign in and sign up", async ({ page }) => {
    const response = await page.goto("/admin");
    expect(response?.status()).toBe(401);
    await expect(page.getByRole("heading", { name: "Sign in to manage your content" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Sign In" })).toBeVisible();
    await page.getByRole("button", { name: /Sign up/ }).click();
    await expect(page.getByRole("heading", { name: "Create your admin account" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Create Account" })).toBeVisible();
  });

  test("signs up with a verification e-mail", async ({ page }) => {
    await page.goto("/admin");
    await page.getByRole("button", { name: /Sign up/ }).click();
    await page.getByLabel("Email").fill("new-admin@oddwire.test");
    await page.getByLabel("Password").fill("a-long-password-1");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByText("Account created! Check your email for verification.")).toBeVisible();
  });

  test("shows the auth service's error in an alert", async ({ page }) => {
    await page.goto("/admin");
    await signInThroughForm(page, { email: ADMIN.email, password: "not-the-password" });
    await expect(page.getByRole("alert")).toHaveText("Invalid email or password");
  });

  test("a user without the admin flag gets Access Denied", async ({ page }) => {
    await page.goto("/admin");
    await signInThroughForm(page, EDITOR);
    await expect(page.getByRole("heading", { name: "Access Denied" })).toBeVisible();
    await expect(
      page.getByText("You don't have admin privileges to access this area. Please contact an administrator if you believe this is an error."),
    ).toBeVisible();
  });

  test("an admin reaches the dashboard, and signs out", async ({ page }) => {
    await page.goto("/admin");
    await signInThroughForm(page, ADMIN);
    await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
    for (const text of ["Total Stories", "Live on the website", "Awaiting approval", "RSS feeds monitored"]) {
      await expect(page.getByText(text)).toBeVisible();
    }
    const nav = page.getByRole("navigation", { name: "Admin" });
    await expect(nav.getByRole("link", { name: "Dashboard" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("link", { name: /View Site/ })).toHaveAttribute("target", "_blank");
    await page.getByRole("button", { name: "Sign Out" }).click();
    await expect(page.getByRole("heading", { name: "Sign in to manage your content" })).toBeVisible();
  });
});

test("the reset-password page refuses a missing or bad token", async ({ page }) => {
  await page.goto("/reset-password");
  await expect(page.getByRole("alert")).toContainText("This reset link is invalid or has expired.");
  await page.goto("/reset-password?token=not-a-real-token");
  await page.getByLabel("New password").fill("a-new-password-1");
  await page.getByRole("button", { name: "Change Password" }).click();
  await expect(page.getByRole("alert")).toBeVisible();
});

test("an admin makes another user an admin on the Users page, and that user gets in", async ({ browser }) => {
  const adminPage = await (await browser.newContext({ extraHTTPHeaders: { "x-forwarded-for": "192.0.2.60" } })).newPage();
  await adminPage.goto("/admin/users");
  await signInThroughForm(adminPage, ADMIN);
  await expect(adminPage.getByRole("heading", { name: "Users" })).toBeVisible();
  await adminPage.getByRole("button", { name: `Make admin for ${PROMOTABLE.email}` }).click();
  await expect(adminPage.getByRole("button", { name: `Revoke admin for ${PROMOTABLE.email}` })).toBeVisible();

  const userPage = await (await browser.newContext({ extraHTTPHeaders: { "x-forwarded-for": "192.0.2.61" } })).newPage();
  await userPage.goto("/admin");
  await signInThroughForm(userPage, PROMOTABLE);
  await expect(userPage.getByRole("heading", { name: "Dashboard" })).toBeVisible();
});

test("Social Media answers inside the back office, highlighted in the navigation", async ({ browser }) => {
  const page = await (await browser.newContext({ extraHTTPHeaders: { "x-forwarded-for": "192.0.2.73" } })).newPage();
  await page.goto("/admin");
  await signInThroughForm(page, ADMIN);
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  const nav = page.getByRole("navigation", { name: "Admin" });
  await nav.getByRole("link", { name: "Social Media" }).click();
  await expect(page).toHaveURL("/admin/social");
  await expect(page.getByRole("heading", { level: 1, name: "Social Media" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Stories Ready to Post" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Social Media" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("button", { name: "Sign Out" })).toBeVisible();
});

test.describe("a change sent from another address than SITE_URL", () => {
  const LAN = "http://192.168.1.20:3000";

  test("the screen says which address to use", async ({ browser, playwright, baseURL }) => {
    // Signed in at SITE_URL (127.0.0.1), then the same session used from http://localhost: what a
    // browser does when someone opens the back office at another name for the same server.
    const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { "x-forwarded-for": "192.0.2.71" } });
    await signIn(api, baseURL!, ADMIN);
    const other = baseURL!.replace("127.0.0.1", "localhost");
    const context = await browser.newContext();
    await context.addCookies((await api.storageState()).cookies.map((cookie) => ({ ...cookie, domain: "localhost" })));
    const page = await context.newPage();
    await gotoHydrated(page, `${other}/admin/users`);
    await expect(page.getByRole("heading", { name: "Users" })).toBeVisible();
    await page.getByRole("button", { name: `Make admin for ${EDITOR.email}` }).click();
    await expect(page.getByRole("heading", { name: "Wrong address for changes" })).toBeVisible();
    await expect(page.getByRole("alert")).toContainText(`This page was opened at ${other}, but changes are accepted only from the site's own address, ${baseURL}.`);
    await expect(page.getByRole("link", { name: `Open ${baseURL}/admin` })).toHaveAttribute("href", `${baseURL}/admin`);
    // Nothing changed: the editor is still not an admin.
    expect(await (await api.get("/admin/users")).text()).toMatch(new RegExp(`Make admin<span class="sr-only"> for (<!-- -->)?${EDITOR.email.replace(".", "\\.")}`));
    await Promise.all([api.dispose(), context.close()]);
  });

  test("a JSON endpoint answers 403 with the same words", async ({ playwright, baseURL }) => {
    const admin = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { "x-forwarded-for": "192.0.2.72" } });
    await signIn(admin, baseURL!, ADMIN);
    const response = await admin.post("/admin/api/validate-feed", { data: { url: "https://a.example/feed" }, headers: { origin: LAN } });
    expect(response.status()).toBe(403);
    expect((await response.json()).error).toContain(`Open ${baseURL}/admin and try again, or set SITE_URL to the address you use.`);
    await admin.dispose();
  });
});
