import { expect, test } from "@playwright/test";
import { PUBLISHED } from "./fixtures";
import { openAsAdmin, useAdminSession } from "./helpers";

// Every answer carries the security headers; the back office is never framed and never stored.
const COMMON = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "cross-origin-opener-policy": "same-origin",
};

test("public pages, a story, the sign-in screen, the auth API and an asset carry the common headers; only https would add HSTS", async ({ request }) => {
  const home = await request.get("/");
  const story = await request.get(`/story/${PUBLISHED[0]!.slug}`);
  // Asked twice: the second answer comes from the page cache, before any routing, and must carry them too.
  const cachedHome = await request.get("/");
  expect(cachedHome.headers()["x-cache"]).toBe("HIT");
  const session = await request.get("/api/auth/get-session");
  for (const answer of [home, story, cachedHome, session]) {
    expect(answer.headers()).toMatchObject(COMMON);
    expect(answer.headers()["permissions-policy"]).toContain("camera=()");
    expect(answer.headers()["strict-transport-security"]).toBeUndefined();
    expect(answer.headers()["x-frame-options"]).toBeUndefined();
  }
  expect(session.headers()["cache-control"]).toBe("no-store");
  expect(home.headers()["cache-control"]).toContain("public");
});

test.describe("as the admin", () => {
  useAdminSession();

  test("the back office, its data requests and its JSON are never framed nor stored", async ({ page }) => {
    await openAsAdmin(page, "/admin/stories");
    const answers = await Promise.all(["/admin", "/admin/stories", "/admin/stories.data", "/admin/api/jobs/none", "/admin/users"].map((url) => page.request.get(url)));
    for (const answer of answers) {
      expect(answer.headers()).toMatchObject({ ...COMMON, "x-frame-options": "DENY" });
      expect(answer.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
      expect(answer.headers()["cache-control"]).toMatch(/no-store/);
    }
    expect(answers[0]!.headers()["cache-control"]).toBe("private, no-store");
    // Signed out, the sign-in screen is the back office too.
    const signedOut = await page.context().request.fetch("/admin", { headers: { cookie: "" } });
    expect(signedOut.headers()["x-frame-options"]).toBe("DENY");
  });
});
