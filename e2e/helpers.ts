import { createHash } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { ADMIN } from "./fixtures";
import { mySlot } from "./slots";

/** Opens a page and waits until React has hydrated it, so clicks reach their handlers. */
export async function gotoHydrated(page: Page, url: string) {
  const response = await page.goto(url);
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  return response;
}

/** This worker's server, signed in as the fixtures' admin once (admin-session.setup.ts): a file's journeys act as the admin. */
export function useAdminSession() {
  test.use({ storageState: mySlot()?.adminSession });
}

/** No session: for a context of a journey that acts as the admin (new contexts take the file's options, its session too). */
export const SIGNED_OUT = { cookies: [], origins: [] };

/**
 * Opens an admin page with the stored admin session (useAdminSession); done when the admin layout is
 * hydrated (its Sign Out button is enabled only then, and at phone width, where Sign Out waits in the
 * closed menu, its Menu button).
 */
export async function openAsAdmin(page: Page, to: string) {
  await page.goto(to);
  await expect(page.getByRole("button", { name: /^(Sign Out|Menu)$/ })).toBeEnabled();
}

/**
 * An address of the running test's own, and of this attempt's, for the journeys that sign in for real
 * (testing sign-in, signing out, a session ending): sign-in allows 5 attempts a minute per address,
 * which a file's journeys and their retries would otherwise share. The server believes the browser's
 * X-Forwarded-For (TRUST_PROXY=loopback in playwright.config.ts).
 */
export function addressOfThisTest(): string {
  const { testId, retry, repeatEachIndex } = test.info();
  const [a = 0, b = 0, c = 0] = createHash("sha256").update(`${testId}:${retry}:${repeatEachIndex}`).digest();
  return `10.${a}.${b}.${c}`;
}

/**
 * Signs in on the admin sign-in screen that `to` shows, as the fixtures' admin, from the test's own
 * address, for a journey that needs a session of its own (it signs out, or ends the session); done
 * when the admin layout is hydrated.
 */
export async function signInAsAdmin(page: Page, to: string) {
  await page.setExtraHTTPHeaders({ "x-forwarded-for": addressOfThisTest() });
  await page.goto(to);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByRole("button", { name: /^(Sign Out|Menu)$/ })).toBeEnabled();
}

/** The toast whose text contains `title`. */
export function toast(page: Page, title: string | RegExp) {
  return page.locator("[data-sonner-toast]").filter({ hasText: title });
}

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** A box once it has stopped moving (a toast slides in). */
async function settledBox(locator: Locator): Promise<Box> {
  let last = await locator.boundingBox();
  for (let i = 0; i < 20; i++) {
    await new Promise((resolve) => setTimeout(resolve, 150));
    const next = await locator.boundingBox();
    if (last && next && JSON.stringify(last) === JSON.stringify(next)) return next;
    last = next;
  }
  throw new Error("the box never settled");
}

/** Some toast is on screen, and none of them covers any of these buttons. */
export async function expectToastsClearOf(page: Page, buttons: Locator[]) {
  const toasts = page.locator("[data-sonner-toast][data-visible='true']");
  expect(await toasts.count()).toBeGreaterThan(0);
  for (const shown of await toasts.all()) {
    const box = await settledBox(shown);
    for (const button of buttons) {
      const target = (await button.boundingBox())!;
      expect(overlap(box, target), `the toast at ${JSON.stringify(box)} covers "${await button.innerText()}" at ${JSON.stringify(target)}`).toBe(false);
    }
  }
}

/** The toasts: the admin layout's (sonner's rich colours), not a screen's own; checked apart. */
export const TOASTS = "[data-sonner-toaster]";

/**
 * The axe violations on the page, WCAG 2.1 A and AA: by default also axe's best practices, whatever
 * their impact; `seriousOnly` keeps the WCAG violations of serious or critical impact. `exclude` leaves
 * out parts of the page checked elsewhere (TOASTS).
 */
export async function axeViolations(page: Page, check: { seriousOnly?: boolean; exclude?: string[] } = {}) {
  let axe = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", ...(check.seriousOnly ? [] : ["best-practice"])]);
  for (const selector of check.exclude ?? []) axe = axe.exclude(selector);
  const { violations } = await axe.analyze();
  return violations
    .filter((v) => !check.seriousOnly || v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(" ")).slice(0, 5) }));
}

/** A status filter button of the admin story list ("Pending", "Rejected Stories"...), named with its count. */
export function statusFilter(page: Page, label: "All Stories" | "Published" | "Pending" | "Rejected Stories") {
  return page.getByRole("navigation", { name: "Filter stories" }).getByRole("link", { name: new RegExp(`^${label} [\\d,]+$`) });
}
