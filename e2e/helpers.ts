import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { ADMIN } from "./fixtures";

/** Opens a page and waits until React has hydrated it, so clicks reach their handlers. */
export async function gotoHydrated(page: Page, url: string) {
  const response = await page.goto(url);
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  return response;
}

/**
 * Signs in on the admin sign-in screen that `to` shows, as the fixtures' admin; done when the admin
 * layout is hydrated (its Sign Out button is enabled only then).
 */
export async function signInAsAdmin(page: Page, to: string) {
  await page.goto(to);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByRole("button", { name: "Sign Out" })).toBeEnabled();
}

/** The toast whose text contains `title`. */
export function toast(page: Page, title: string | RegExp) {
  return page.locator("[data-sonner-toast]").filter({ hasText: title });
}

/** Every axe violation on the page (WCAG 2.1 A and AA, and axe's best practices), whatever its impact. */
export async function axeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  return results.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(" ")).slice(0, 5) }));
}

/** A status filter button of the admin story list ("Pending", "Rejected Stories"...), named with its count. */
export function statusFilter(page: Page, label: "All Stories" | "Published" | "Pending" | "Rejected Stories") {
  return page.getByRole("navigation", { name: "Filter stories" }).getByRole("link", { name: new RegExp(`^${label} [\\d,]+$`) });
}
