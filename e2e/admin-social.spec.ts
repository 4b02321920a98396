import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { axeViolations, openAsAdmin, signInAsAdmin, toast, TOASTS, useAdminSession } from "./helpers";
import { SOCIAL_GRAPH_FILE, SOCIAL_NOT_CONNECTED_ENV, SOCIAL_PAGE_NAME, SOCIAL_STORIES } from "./fixtures";
import { tempDir } from "~/test/temp-dir";

useAdminSession();
// The journeys post the seeded stories one after another: each expects what the one before left.
// No retries: a retry would start again from the first journey, whose story is already posted.
test.describe.configure({ mode: "serial", retries: 0 });

/** Steers the fake Graph API behind this worker's server (e2e/fixture-server.ts). */
async function steerGraph(page: Page, route: "/answer-once" | "/clear", body: unknown = {}) {
  const { control } = JSON.parse(readFileSync(path.join(process.env.E2E_DATA_DIR ?? "", SOCIAL_GRAPH_FILE), "utf8")) as { control: string };
  const response = await page.request.post(`${control}${route}`, { data: body });
  expect(response.ok()).toBe(true);
}

const [seagulls, lemonade, snail, accordion] = SOCIAL_STORIES as [
  (typeof SOCIAL_STORIES)[number],
  (typeof SOCIAL_STORIES)[number],
  (typeof SOCIAL_STORIES)[number],
  (typeof SOCIAL_STORIES)[number],
];
const ready = (page: Page) => page.getByRole("region", { name: "Stories Ready to Post" });
const composer = (page: Page) => page.getByRole("region", { name: "Facebook Post Composer" });
const recent = (page: Page) => page.getByRole("region", { name: "Recent Facebook Posts" });
const postOf = (page: Page, title: string) => recent(page).getByRole("listitem").filter({ hasText: title });

test("an editor posts a story with the composed message and sees it among the recent posts with a link to the live post", async ({ page }) => {
  await openAsAdmin(page, "/admin/social");
  await expect(page.getByRole("heading", { level: 1, name: "Social Media" })).toBeVisible();
  const connection = page.getByRole("region", { name: "Facebook Page connection" });
  await expect(connection.getByRole("link", { name: SOCIAL_PAGE_NAME })).toBeVisible();
  await expect(connection).toContainText("works");
  await expect(connection).toContainText("pages_manage_posts");
  await expect(composer(page)).toContainText("Select a story to create a Facebook post");
  await expect(recent(page)).toContainText("No posts yet");
  expect(await axeViolations(page, { seriousOnly: true, exclude: [TOASTS] })).toEqual([]);

  // By keyboard: the story is a button in the list.
  const choice = ready(page).getByRole("button", { name: new RegExp(seagulls.title) });
  await choice.focus();
  await page.keyboard.press("Enter");
  await expect(choice).toHaveAttribute("aria-pressed", "true");
  const message = composer(page).getByLabel("Message");
  await expect(message).toHaveValue(new RegExp(`^${seagulls.title}\\n\\n${seagulls.summary}\\n\\nRead more: http://127\\.0\\.0\\.1:\\d+/category/odd-jobs\\n\\n#WeirdNews #Oddwire #StrangeButTrue$`));
  await expect(composer(page)).toContainText(`/story/${seagulls.slug}`);
  // The preview shows the card Facebook will show: this story has no picture, so its share card.
  await expect(composer(page).getByRole("figure")).toContainText(seagulls.title);
  await expect(composer(page).getByRole("figure").locator("img")).toHaveAttribute("src", /\/img\/\d+\/card-[0-9a-f]{8}\.png$/);

  // No message, no post.
  const postButton = composer(page).getByRole("button", { name: "Post to Facebook" });
  await message.fill("   ");
  await expect(postButton).toBeDisabled();
  await message.fill(`${seagulls.title} - knock knock.`);
  await expect(postButton).toBeEnabled();
  expect(await axeViolations(page, { seriousOnly: true, exclude: [TOASTS] })).toEqual([]);
  await postButton.click();
  await expect(toast(page, "Success!")).toContainText("Story posted to Facebook successfully!", { timeout: 15_000 });

  const posted = postOf(page, seagulls.title);
  await expect(posted).toContainText("posted");
  await expect(posted.getByRole("link", { name: /View on Facebook/ })).toHaveAttribute("href", /^https:\/\/www\.facebook\.com\/\d+\/posts\/\d+$/);
  await expect(ready(page).getByRole("button", { name: new RegExp(seagulls.title) })).toHaveCount(0);
  await expect(composer(page)).toContainText("Select a story to create a Facebook post");
});

test("a post Facebook refuses is shown with its reason; Repost loads the story and asks before posting it again", async ({ page }) => {
  await openAsAdmin(page, "/admin/social");
  await steerGraph(page, "/answer-once", {
    endpoint: "feed",
    answer: { kind: "error", status: 400, error: { message: "Error validating access token: Session has expired.", type: "OAuthException", code: 190, error_subcode: 463, fbtrace_id: "AbCdTrace1" } },
  });
  await ready(page).getByRole("button", { name: new RegExp(lemonade.title) }).click();
  await composer(page).getByRole("button", { name: "Post to Facebook" }).click();
  await expect(toast(page, "Error")).toContainText("The Facebook token has expired. Reconnect the Page: renew FACEBOOK_PAGE_TOKEN.", { timeout: 15_000 });
  const failed = postOf(page, lemonade.title);
  await expect(failed).toContainText("failed");
  await expect(failed).toContainText("renew FACEBOOK_PAGE_TOKEN");
  await expect(failed).toContainText("Facebook code 190, trace AbCdTrace1");

  // Repost the one that went out.
  await postOf(page, seagulls.title).getByRole("button", { name: `Repost ${seagulls.title}` }).click();
  await expect(toast(page, "Story loaded for reposting")).toContainText(`Ready to repost: ${seagulls.title}`);
  await expect(composer(page)).toContainText(`Reposting: ${seagulls.title}`);
  await composer(page).getByRole("button", { name: "Repost to Facebook" }).click();
  const confirm = page.getByRole("dialog", { name: "Post this story again?" });
  await expect(confirm).toBeVisible();
  // Escape backs out: nothing is posted.
  await page.keyboard.press("Escape");
  await expect(confirm).toHaveCount(0);
  await composer(page).getByRole("button", { name: "Repost to Facebook" }).click();
  await confirm.getByRole("button", { name: "Repost" }).click();
  await expect(toast(page, "Success!")).toContainText("Story posted to Facebook successfully!", { timeout: 15_000 });
  await expect(postOf(page, seagulls.title)).toHaveCount(2);
});

test("a rate-limited post waits and goes out later instead of failing", async ({ page }) => {
  await openAsAdmin(page, "/admin/social");
  await steerGraph(page, "/answer-once", {
    endpoint: "feed",
    answer: { kind: "error", status: 400, error: { message: "(#32) Page request limit reached", type: "OAuthException", code: 32, fbtrace_id: "RateTrace1" } },
  });
  await ready(page).getByRole("button", { name: new RegExp(accordion.title) }).click();
  await composer(page).getByRole("button", { name: "Post to Facebook" }).click();
  await expect(toast(page, "Waiting to post")).toContainText("rate limit", { timeout: 15_000 });
  const waiting = postOf(page, accordion.title);
  await expect(waiting).toContainText("pending");
  await expect(waiting).toContainText(/Trying again at [A-Z][a-z]{2} \d{1,2}, \d{4} \d{2}:\d{2} UTC/);
  // While it waits, it cannot be posted a second time by accident.
  await expect(ready(page).getByRole("button", { name: new RegExp(accordion.title) })).toHaveCount(0);
});

test("a scheduled post is listed with its time and can be cancelled", async ({ page }) => {
  await openAsAdmin(page, "/admin/social");
  await ready(page).getByRole("button", { name: new RegExp(snail.title) }).click();
  await composer(page).getByLabel("Schedule").check();
  const at = new Date(Date.now() + 2 * 24 * 60 * 60_000);
  at.setUTCHours(9, 30, 0, 0);
  const button = composer(page).getByRole("button", { name: "Schedule Post" });
  await expect(button).toBeDisabled();
  await composer(page).getByLabel("Post at (UTC)").fill(at.toISOString().slice(0, 16));
  await button.click();
  const when = `${at.toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" })} 09:30`;
  await expect(toast(page, "Post scheduled")).toContainText(`It will be posted at ${when} UTC.`);
  const scheduled = page.getByRole("region", { name: "Scheduled Posts" });
  await expect(scheduled).toContainText(snail.title);
  await expect(scheduled).toContainText(`Scheduled for ${when} UTC`);
  await expect(postOf(page, snail.title)).toContainText("pending");

  await scheduled.getByRole("button", { name: `Cancel the scheduled post of ${snail.title}` }).click();
  await expect(toast(page, "Scheduled post cancelled")).toBeVisible();
  await expect(page.getByRole("region", { name: "Scheduled Posts" })).toHaveCount(0);
  await expect(ready(page).getByRole("button", { name: new RegExp(snail.title) })).toBeVisible();
});

test("Check connection says plainly when the token no longer works, and that it must be renewed", async ({ page }) => {
  // The journeys before this one signed in from the file's address: sign-in is limited per address.
  await openAsAdmin(page, "/admin/social");
  const connection = page.getByRole("region", { name: "Facebook Page connection" });
  await expect(connection).toContainText("works");
  const expired = { kind: "error", status: 400, error: { message: "Error validating access token: Session has expired.", type: "OAuthException", code: 190, error_subcode: 463, fbtrace_id: "CheckTrace1" } };
  await steerGraph(page, "/answer-once", { endpoint: "page", answer: expired });
  await steerGraph(page, "/answer-once", { endpoint: "debug_token", answer: expired });
  const check = connection.getByRole("button", { name: "Check connection" });
  await check.focus();
  await page.keyboard.press("Enter");
  await expect(connection).toContainText("not working");
  await expect(connection.getByRole("status")).toHaveText("The token is not working: The Facebook token has expired. Reconnect the Page: renew FACEBOOK_PAGE_TOKEN.");
  await expect(connection).toContainText("Facebook code 190, trace CheckTrace1");
  expect(await axeViolations(page, { seriousOnly: true, exclude: [TOASTS] })).toEqual([]);

  // Renewed (here: Facebook answers normally again), the next check says so.
  await steerGraph(page, "/clear");
  await check.click();
  await expect(connection.getByRole("status")).toHaveText("The token works.");
  await expect(connection).not.toContainText("Problem");
});

/** Records every change of the connection's live region, as a screen reader would hear it: its text after each change. */
async function recordAnnouncements(page: Page) {
  await page.getByRole("region", { name: "Facebook Page connection" }).getByRole("status").evaluate((region) => {
    const heard: string[] = [];
    (window as unknown as { heard: string[] }).heard = heard;
    new MutationObserver(() => heard.push(region.textContent ?? "")).observe(region, { subtree: true, childList: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { heard: string[] }).heard);
}

test("with a token whose check Facebook answers with no data, posts go out and the panel says so once, through every action", async ({ page }) => {
  // Facebook answers the token checks without data, as it did for a Page token that posted fine: every check of this journey.
  const noData = (body: unknown) => ({ kind: "raw", status: 200, body: JSON.stringify(body), headers: { "content-type": "application/json" } });
  for (let i = 0; i < 4; i++) {
    await steerGraph(page, "/answer-once", { endpoint: "debug_token", answer: noData({ data: {} }) });
    await steerGraph(page, "/answer-once", { endpoint: "permissions", answer: noData({ data: [] }) });
  }
  await openAsAdmin(page, "/admin/social");
  const connection = page.getByRole("region", { name: "Facebook Page connection" });
  const region = connection.getByRole("status");
  await expect(region).toHaveText("The token works, but Facebook did not give its details: its expiry and permissions could not be read.");
  await expect(connection).not.toContainText(/expired|code 190|Missing/);
  const heard = await recordAnnouncements(page);

  // Several actions: choose a story, check again, load a posted story for a repost, post a story.
  const checked = () => page.waitForResponse((response) => new URL(response.url()).pathname === "/admin/api/facebook");
  await ready(page).getByRole("button", { name: new RegExp(snail.title) }).click();
  let answered = checked();
  await connection.getByRole("button", { name: "Check connection" }).click();
  await answered;
  await expect(connection.getByRole("button", { name: "Check connection" })).toBeEnabled();
  await postOf(page, seagulls.title).first().getByRole("button", { name: `Repost ${seagulls.title}` }).click();
  await expect(toast(page, "Story loaded for reposting")).toBeVisible();
  await ready(page).getByRole("button", { name: new RegExp(lemonade.title) }).click();
  // The post that goes out has the connection checked again.
  answered = checked();
  await composer(page).getByRole("button", { name: "Post to Facebook" }).click();
  await expect(toast(page, "Success!")).toContainText("Story posted to Facebook successfully!", { timeout: 15_000 });
  await answered;
  await expect(connection).toHaveAttribute("aria-busy", "false");
  await expect(connection).not.toContainText(/expired|code 190|Missing|not working/);
  expect(await heard()).toEqual([]);

  // A real change is announced, once: Facebook now refuses the token with code 190.
  const expired = { kind: "error", status: 400, error: { message: "Error validating access token: Session has expired.", type: "OAuthException", code: 190, error_subcode: 463 } };
  await steerGraph(page, "/clear");
  for (let i = 0; i < 2; i++) {
    await steerGraph(page, "/answer-once", { endpoint: "page", answer: expired });
    await steerGraph(page, "/answer-once", { endpoint: "debug_token", answer: expired });
  }
  await connection.getByRole("button", { name: "Check connection" }).click();
  await expect(region).toContainText("has expired");
  await expect(connection.getByRole("button", { name: "Check connection" })).toBeEnabled();
  answered = checked();
  await connection.getByRole("button", { name: "Check connection" }).click();
  await answered;
  await expect(connection.getByRole("button", { name: "Check connection" })).toBeEnabled();
  await steerGraph(page, "/clear");
  expect(await heard()).toEqual(["The token is not working: The Facebook token has expired. Reconnect the Page: renew FACEBOOK_PAGE_TOKEN."]);
});

test("without a Page connection the page says how to connect instead of failing on the first post", async ({ page }) => {
  test.setTimeout(180_000);
  // A second server of the same fixtures, started without FACEBOOK_PAGE_ID and FACEBOOK_PAGE_TOKEN.
  const port = Number(process.env.E2E_BASE_PORT ?? 20_000) + 500 + Number(process.env.TEST_PARALLEL_INDEX ?? 0);
  const url = `http://127.0.0.1:${port}`;
  const dataDir = tempDir("oddwire-e2e-nofb-");
  const server = spawn(process.execPath, ["--import", "tsx", "e2e/fixture-server.ts"], {
    env: {
      ...process.env,
      PORT: String(port),
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      SITE_URL: url,
      E2E_DATA_DIR: dataDir,
      E2E_DATABASE_NAME: `${process.env.E2E_DATABASE_NAME ?? "oddwire_e2e"}_nofb`,
      [SOCIAL_NOT_CONNECTED_ENV]: "1",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  server.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    await expect
      .poll(async () => (await page.request.get(`${url}/healthz`).catch(() => null))?.status() ?? 0, { timeout: 150_000, intervals: [500] })
      .toBe(200);
    // A server of its own, on a database of its own: the stored session is not known there.
    await signInAsAdmin(page, `${url}/admin/social`);
    const help = page.getByRole("region", { name: "Facebook is not connected" });
    await expect(help).toContainText("FACEBOOK_PAGE_ID");
    await expect(help).toContainText("FACEBOOK_PAGE_TOKEN");
    await expect(help).toContainText("pages_manage_posts");
    await expect(help).toContainText("pages_read_engagement");
    await ready(page).getByRole("button", { name: new RegExp(seagulls.title) }).click();
    await expect(composer(page).getByRole("button", { name: "Post to Facebook" })).toBeDisabled();
    await expect(composer(page)).toContainText("Connect the Facebook Page first");
    expect(await axeViolations(page, { seriousOnly: true, exclude: [TOASTS] })).toEqual([]);

  } catch (error) {
    throw new Error(`${String(error)}\nserver stderr:\n${stderr}`);
  } finally {
    server.kill("SIGTERM");
    await new Promise((resolve) => server.once("exit", resolve));
  }
});
