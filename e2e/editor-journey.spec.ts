import { execFile } from "node:child_process";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { readOutbox } from "~/integrations/mail/mailer";
import { ADMIN } from "./fixtures";

// A new editor from sign-up to admin: the verification link from the outbox, Access Denied, the
// admin right (through the CLI on PostgreSQL; on the embedded database the server holds the data
// dir, so an admin grants it on the Users page), then the dashboard.
const NEWCOMER = { email: "newcomer@oddwire.test", password: "newcomer-password-1" };

test("sign up, verify by the e-mailed link, get the admin right, and reach the dashboard", async ({ page, browser }) => {
  test.setTimeout(90_000);
  await page.setExtraHTTPHeaders({ "x-forwarded-for": "192.0.2.90" });
  await page.goto("/admin");
  await page.getByRole("button", { name: /Sign up/ }).click();
  await page.getByLabel("Email").fill(NEWCOMER.email);
  await page.getByLabel("Password").fill(NEWCOMER.password);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByText("Account created! Check your email for verification.")).toBeVisible();

  const outbox = path.join(process.env.E2E_DATA_DIR!, "outbox");
  await expect.poll(async () => (await readOutbox(outbox)).some((m) => m.to === NEWCOMER.email)).toBe(true);
  const mail = (await readOutbox(outbox)).find((m) => m.to === NEWCOMER.email)!;
  const link = /(https?:\/\/\S+)/.exec(mail.text)![1]!;
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Access Denied" })).toBeVisible();

  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const databaseUrl = new URL(serverUrl);
    databaseUrl.pathname = `/${process.env.E2E_DATABASE_NAME}`;
    const output = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        [path.resolve("bin/oddwire.mjs"), "user:grant-admin", NEWCOMER.email],
        { env: { ...process.env, DATABASE_URL: databaseUrl.toString(), AUTH_SECRET: "x".repeat(40) }, timeout: 60_000 },
        (error, stdout, stderr) => (error ? reject(new Error(stderr)) : resolve(stdout)),
      ),
    );
    expect(JSON.parse(output)).toMatchObject({ email: NEWCOMER.email, isAdmin: true });
  } else {
    const admin = await (await browser.newContext({ extraHTTPHeaders: { "x-forwarded-for": "192.0.2.91" } })).newPage();
    await admin.goto("/admin/users");
    await admin.getByLabel("Email").fill(ADMIN.email);
    await admin.getByLabel("Password").fill(ADMIN.password);
    await admin.getByRole("button", { name: "Sign In" }).click();
    await admin.getByRole("button", { name: `Make admin for ${NEWCOMER.email}` }).click();
    await expect(admin.getByRole("button", { name: `Revoke admin for ${NEWCOMER.email}` })).toBeVisible();
  }

  await page.goto("/admin");
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
});
