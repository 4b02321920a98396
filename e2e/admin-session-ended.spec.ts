import { expect, test, type APIRequest, type Page } from "@playwright/test";
import { EDITOR } from "./fixtures";
import { signInAsAdmin } from "./helpers";

// An editor whose session ended (signed out elsewhere, or expired) while a back-office page stayed
// open: the server refuses the next change before reading its body (server/http/body-gate.ts), and the
// browser shows the sign-in screen, as the admin gate always did.

/** Ends the page's session in the database, as signing out in another tab does; the page keeps its cookie. */
async function endSessionElsewhere(page: Page, baseURL: string, request: APIRequest) {
  const elsewhere = await request.newContext({ baseURL, storageState: await page.context().storageState() });
  expect((await elsewhere.post("/api/auth/sign-out", { data: {}, headers: { origin: baseURL } })).status()).toBe(200);
  await elsewhere.dispose();
  const cookies = (await page.context().cookies()).filter((cookie) => cookie.name.includes("session_token"));
  expect(cookies.length, "the page still holds its session cookie").toBeGreaterThan(0);
}

test("a fetcher's change from an ended session lands on the sign-in screen, its body refused unread", async ({ page, baseURL, playwright }) => {
  await signInAsAdmin(page, "/admin/categories");
  await endSessionElsewhere(page, baseURL!, playwright.request);

  await page.getByRole("button", { name: "Add Category" }).first().click();
  await page.getByLabel("Category Name").first().fill("Ghost Category");
  const answered = page.waitForResponse((response) => response.request().method() === "POST" && new URL(response.url()).pathname === "/admin/categories.data");
  await page.getByRole("main").locator("form").getByRole("button", { name: "Add Category" }).click();
  const answer = await answered;
  expect(answer.status()).toBe(401);
  // Refused before its body was read: the connection is closed after the answer.
  expect((await answer.allHeaders()).connection).toBe("close");
  await expect(page.getByRole("heading", { name: "Sign in to manage your content" })).toBeVisible();

  // Signed in again, nothing was added.
  await signInAsAdmin(page, "/admin/categories");
  await expect(page.getByRole("heading", { name: "Categories" })).toBeVisible();
  await expect(page.getByRole("main")).not.toContainText("Ghost Category");
});

test("a form's change from an ended session lands on the sign-in screen, and changes nothing", async ({ page, baseURL, playwright }) => {
  await signInAsAdmin(page, "/admin/users");
  await endSessionElsewhere(page, baseURL!, playwright.request);

  const answered = page.waitForResponse((response) => response.request().method() === "POST" && new URL(response.url()).pathname === "/admin/users.data");
  await page.getByRole("button", { name: `Make admin for ${EDITOR.email}` }).click();
  const answer = await answered;
  expect(answer.status()).toBe(401);
  expect((await answer.allHeaders()).connection).toBe("close");
  await expect(page.getByRole("heading", { name: "Sign in to manage your content" })).toBeVisible();

  await signInAsAdmin(page, "/admin/users");
  await expect(page.getByRole("button", { name: `Make admin for ${EDITOR.email}` })).toBeVisible();
});
