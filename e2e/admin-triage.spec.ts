import { execFile, spawn, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { rmSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { tempDir } from "~/test/temp-dir";

// Editorial triage in the browser, on a server of its own (its decisions would change the shared
// fixtures' counts): stories come in from feeds on a local site, the desk's decisions are made with
// the CLI, and the Pending list, a score's reasons, the suggested category, one story from two
// sources and the Sources page's yield are read as an editor sees them.
const BIN = path.resolve("bin/oddwire.mjs");
const EDITOR = { email: "desk@oddwire.test", password: "triage-desk-password-1" };

const ANIMALS = ["goat", "llama", "alpaca", "parrot", "raccoon", "otter", "pig", "emu", "iguana", "tortoise"];
const ANTICS = ["steals a police car", "crashes a wedding", "rides the bus to work", "eats a birthday cake", "wins a talent show", "escapes the zoo"];
const DULL = ["council approves the parking levy", "committee reviews the budget", "ministry updates tax guidance", "board delays the road works", "agency publishes quarterly figures", "parliament debates the pension bill"];
const PLACES = ["Leeds", "Dayton", "Perth", "Graz", "Lyon", "Turku", "Cork", "Utica", "Nantes", "Ghent"];

// 60 stories of the kind the desk publishes and 60 it rejects, all different.
const DECIDED = Array.from({ length: 60 }, (_, i) => ({
  weird: { title: `A ${ANIMALS[i % 10]} ${ANTICS[i % 6]} in ${PLACES[Math.floor(i / 6)]}`, summary: `Witnesses say the ${ANIMALS[i % 10]} seemed pleased with itself.` },
  dull: { title: `The ${DULL[i % 6]} in ${PLACES[Math.floor(i / 6)]}, session ${i}`, summary: "The motion passed after a short debate on procedure." },
}));
const ODD = { title: "A goat escapes the zoo and rides a llama through Oslo", summary: "Witnesses say the goat seemed pleased with itself." };
const DRY = { title: "The council approves the parking levy in Oslo, session 99", summary: "The motion passed after a short debate on procedure." };
const TOLD_TWICE = [
  { title: "Alpaca elected honorary mayor of a small Texas town", summary: "Residents chose the alpaca after a lively campaign at the county fair, officials said on Monday." },
  { title: "Alpaca elected honorary mayor of small Texas town", summary: "Residents chose the alpaca after a lively campaign at the county fair, officials said on Monday." },
];

type Item = { title: string; summary: string };
const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");
function rss(name: string, items: Item[], origin: string): string {
  const now = Date.now();
  const entries = items.map(
    (item, i) =>
      `<item><title>${escape(item.title)}</title><link>${origin}/${name}/${i}</link><guid>${name}-${i}</guid><pubDate>${new Date(now - i * 60_000).toUTCString()}</pubDate><description>${escape(item.summary)}</description></item>`,
  );
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>${name}</title><link>${origin}/</link><description>${name}</description>${entries.join("")}</channel></rss>`;
}

function feedSite(): Promise<{ server: Server; origin: string }> {
  const feeds: Record<string, Item[]> = {
    "/decided.xml": DECIDED.flatMap((d) => [d.weird, d.dull]),
    "/inbox-a.xml": [ODD, DRY, TOLD_TWICE[0]!],
    "/inbox-b.xml": [TOLD_TWICE[1]!],
  };
  let origin = "";
  const server = createServer((request, response) => {
    const items = feeds[request.url ?? ""];
    if (request.url === "/robots.txt") return void response.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nAllow: /\n");
    if (!items) return void response.writeHead(404).end();
    response.writeHead(200, { "content-type": "application/rss+xml" }).end(rss(request.url!.slice(1, -4), items, origin));
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      resolve({ server, origin });
    }),
  );
}

/** A port free now: the server needs its own address up front, for the origin sign-in checks. */
function freePort(): Promise<number> {
  const probe = createServer();
  return new Promise((resolve) =>
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    }),
  );
}

function serverEnv(dataDir: string, port: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1", SITE_URL: `http://127.0.0.1:${port}`, FETCH_ALLOW_HOSTS: "127.0.0.1" };
  delete env.DATABASE_URL;
  delete env.NODE_ENV;
  return env;
}

function started(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${seen}`)), 120_000);
    const read = (chunk: Buffer) => {
      seen += chunk.toString();
      if (!seen.includes("Oddwire is serving on")) return;
      clearTimeout(timer);
      resolve();
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    child.once("exit", (code) => reject(new Error(`the server exited with ${code}:\n${seen}`)));
  });
}

const rows = (page: Page) => page.getByRole("main").getByRole("list").first().locator(":scope > li");
const row = (page: Page, title: string) => rows(page).filter({ has: page.getByRole("heading", { name: title }) });

test("the desk's decisions order Pending, explain a score, preselect a category, put one story from two sources on one row, and show each source's yield", async ({ page }) => {
  test.setTimeout(300_000);
  const dataDir = tempDir("oddwire-triage-");
  const { server: site, origin } = await feedSite();
  const port = await freePort();
  const env = serverEnv(dataDir, port);
  const server = spawn(process.execPath, [BIN, "serve"], { env });
  const cli = async (...args: string[]) =>
    new Promise<unknown>((resolve, reject) =>
      execFile(process.execPath, [BIN, ...args], { env: { ...env, LOG_LEVEL: "warn" }, timeout: 120_000 }, (error, stdout, stderr) => (error ? reject(new Error(`${args[0]}: ${stderr}`)) : resolve(JSON.parse(stdout)))),
    );
  try {
    await started(server);
    await cli("user:create", "--email", EDITOR.email, "--password", EDITOR.password, "--admin");
    await cli("source:add", "--name", "Decided Wire", "--type", "rss", "--feed", `${origin}/decided.xml`, "--website", `${origin}/`);
    await cli("ingest");
    const pending = ((await cli("triage", "--limit", "500")) as { stories: { id: number; title: string }[] }).stories;
    expect(pending).toHaveLength(120);
    const idsOf = (titles: string[]) => pending.filter((s) => titles.includes(s.title)).map((s) => s.id).join(",");
    await cli("review", "--publish", idsOf(DECIDED.map((d) => d.weird.title)), "--category", "animals");
    await cli("review", "--reject", idsOf(DECIDED.map((d) => d.dull.title)), "--reason", "Not for this desk");
    await cli("source:add", "--name", "Inbox A", "--type", "rss", "--feed", `${origin}/inbox-a.xml`, "--website", `${origin}/`);
    await cli("source:add", "--name", "Inbox B", "--type", "rss", "--feed", `${origin}/inbox-b.xml`, "--website", `${origin}/`);
    await cli("ingest");

    await page.goto(`http://127.0.0.1:${port}/admin/stories?status=pending`);
    await page.getByLabel("Email").fill(EDITOR.email);
    await page.getByLabel("Password").fill(EDITOR.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByRole("heading", { name: "Stories", level: 1 })).toBeVisible();
    await page.goto(`http://127.0.0.1:${port}/admin/stories?status=pending`);
    await page.getByRole("button", { name: "Retrain now" }).click();
    await expect(page.getByText("Triage updated")).toBeVisible({ timeout: 60_000 });

    // Most likely first, learned from the desk's 60 and 60; the odd story leads and the dry one trails.
    await expect(page.getByText("Most likely first", { exact: true })).toBeVisible();
    await expect(page.getByText(/learned from 60 published and 60 rejected stories/)).toBeVisible();
    await expect(rows(page).first().getByRole("heading")).toHaveText(ODD.title);
    await expect(rows(page).last().getByRole("heading")).toHaveText(DRY.title);
    const percentOf = async (title: string) => Number(/(\d+)% likely to be published/.exec(await row(page, title).innerText())?.[1]);
    expect(await percentOf(ODD.title)).toBeGreaterThan(50);
    expect(await percentOf(DRY.title)).toBeLessThan(50);

    // Its details say which words raised the score.
    await row(page, ODD.title).getByRole("button", { name: "Details" }).click();
    await expect(row(page, ODD.title).getByText(/^Why \d+% likely$/)).toBeVisible();
    await expect(row(page, ODD.title).getByText(/^Raised by .*\bthe words? ([^;]+, )?goat\b/)).toBeVisible();
    // And which category the desk's published stories suggest for it, before publishing.
    await expect(row(page, ODD.title).getByText(/^Suggested: Animals, \d+% sure, from the stories this desk published\.$/)).toBeVisible();

    // Publishing it asks for a category, with the one the desk's published stories suggest chosen.
    await row(page, ODD.title).getByRole("button", { name: `Publish ${ODD.title}` }).click();
    const dialog = page.getByRole("dialog", { name: "Choose a category to publish" });
    await expect(dialog.getByRole("combobox", { name: "Category" }).locator("option:checked")).toHaveText("Animals");
    await expect(dialog).toContainText(/Suggested: Animals, \d+% sure, from the stories this desk published\./);
    await dialog.getByRole("button", { name: "Cancel" }).click();

    // The same story from two sources takes one row that says so.
    await expect(rows(page).filter({ hasText: "Alpaca elected honorary mayor" })).toHaveCount(1);
    await expect(rows(page).filter({ hasText: "Alpaca elected honorary mayor" })).toContainText("Also from 1 source");

    // Sources: each source's yield over the last 30 days.
    await page.goto(`http://127.0.0.1:${port}/admin/sources`);
    const decidedCard = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Decided Wire" }) });
    await expect(decidedCard).toContainText("Yield, last 30 days: 120 brought in · 60 published · 60 rejected · 0 pending · 50% published");

    // The rejections keep the desk's words, and the list shows them.
    await page.goto(`http://127.0.0.1:${port}/admin/stories?status=rejected`);
    const dullRow = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: DECIDED[0]!.dull.title }) });
    await expect(dullRow).toContainText("manual_rejection (Not for this desk)");

    // Publishing a selection: the stories without a category are asked for, the suggested one chosen.
    await page.goto(`http://127.0.0.1:${port}/admin/stories?status=pending`);
    await page.getByRole("checkbox", { name: `Select ${ODD.title}` }).check();
    await page.getByRole("checkbox", { name: `Select ${DRY.title}` }).check();
    await page.getByRole("button", { name: "Publish selected (2)" }).click();
    const choose = page.getByRole("dialog", { name: "Choose categories to publish" });
    await expect(choose.getByRole("combobox", { name: ODD.title }).locator("option:checked")).toHaveText("Animals");
    await choose.getByRole("combobox", { name: DRY.title }).selectOption({ label: "Crime & Courts" });
    await choose.getByRole("button", { name: "Publish 2 stories" }).click();
    await expect(page.getByText("Published 2 stories")).toBeVisible();
    await expect(choose).toBeHidden();
    const filed = ((await cli("triage", "--limit", "500")) as { stories: { title: string }[] }).stories.map((s) => s.title);
    expect(filed).not.toContain(ODD.title);
    expect(filed).not.toContain(DRY.title);
    await page.goto(`http://127.0.0.1:${port}/admin/stories?status=published&search=Oslo`);
    await expect(row(page, ODD.title).getByRole("combobox", { name: `Category of ${ODD.title}` }).locator("option:checked")).toHaveText("Animals");
    await expect(row(page, DRY.title).getByRole("combobox", { name: `Category of ${DRY.title}` }).locator("option:checked")).toHaveText("Crime & Courts");
  } finally {
    server.kill("SIGTERM");
    await new Promise((resolve) => (server.exitCode === null ? server.once("exit", resolve) : resolve(null)));
    site.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
