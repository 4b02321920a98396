import { execFile } from "node:child_process";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { readOutbox } from "~/integrations/mail/mailer";

// A new editor from sign-up to admin: the verification link from the outbox, Access Denied, the
// admin right (through the CLI, while the server runs), then the dashboard.
const NEWCOMER = { email: "newcomer@oddwire.test", password: "newcomer-password-1" };

test("sign up, verify by the e-mailed link, get the admin right, and reach the dashboard", async ({ page }) => {
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

  // The CLI works on the running server's database: its own embedded one in the data dir, or TEST_DATABASE_URL's.
  const serverUrl = process.env.TEST_DATABASE_URL;
  const database: NodeJS.ProcessEnv = serverUrl
    ? { DATABASE_URL: Object.assign(new URL(serverUrl), { pathname: `/${process.env.E2E_DATABASE_NAME}` }).toString() }
    : { DATA_DIR: process.env.E2E_DATA_DIR! };
  const env: NodeJS.ProcessEnv = { ...process.env, ...database, AUTH_SECRET: "x".repeat(40), LOG_LEVEL: "warn" };
  if (!serverUrl) delete env.DATABASE_URL;
  const output = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, [path.resolve("bin/oddwire.mjs"), "user:grant-admin", NEWCOMER.email], { env, timeout: 60_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(stderr)) : resolve(stdout),
    ),
  );
  expect(JSON.parse(output)).toMatchObject({ email: NEWCOMER.email, isAdmin: true });

  await page.goto("/admin");
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
});
