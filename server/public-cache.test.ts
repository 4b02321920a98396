import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, test } from "vitest";
import { createPublicCache, PUBLIC_CACHE_CONTROL, type PublicCache } from "./public-cache";

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/**
 * A real HTTP server behind the cache whose pages say how often they were rendered. The cache reads
 * a clock the test moves by hand, and /slow renders only once the test lets it.
 */
async function start(options: { ttlMs?: number; staleMs?: number; staleIfErrorMs?: number } = {}) {
  let time = 0;
  const cache: PublicCache = createPublicCache({ ...options, now: () => time });
  let renders = 0;
  let slowGate: Promise<void> = Promise.resolve();
  let slowEntered: () => void = () => {};
  let arrivals = 0;
  let arrivalWaiters: { count: number; resolve: () => void }[] = [];
  const app = express();
  // Counts requests once the cache has decided what to do with them (the router calls it synchronously).
  app.use((_req, _res, next) => {
    next();
    arrivals++;
    arrivalWaiters = arrivalWaiters.filter((w) => (w.count <= arrivals ? (w.resolve(), false) : true));
  });
  app.use(cache.middleware);
  app.get("/page", (_req, res) => {
    renders++;
    res.type("html");
    // Written in pieces, as a streamed render would be.
    res.write("<p>render ");
    res.write(String(renders));
    res.end("</p>");
  });
  app.get("/slow", async (_req, res) => {
    const n = ++renders;
    slowEntered();
    await slowGate;
    res.type("html").send(`<p>slow ${n}</p>`);
  });
  app.get("/feed", (_req, res) => res.set("Cache-Control", "public, max-age=60").type("xml").send("<rss/>"));
  app.get("/missing", (_req, res) => res.status(404).send("not here"));
  app.get("/broken", (_req, res) => res.status(500).send("oops"));
  // Renders until the test takes its "database" away, then fails as a page does without one.
  let databaseUp = true;
  app.get("/outage", (_req, res) => {
    renders++;
    if (databaseUp) res.type("html").send(`<p>outage ${renders}</p>`);
    else res.status(500).type("html").send("<p>Something went wrong</p>");
  });
  app.get("/cookie", (_req, res) => res.cookie("a", "b").send(`cookie ${++renders}`));
  app.get("/admin/stories", (_req, res) => res.send(`admin ${++renders}`));
  app.post("/page", (_req, res) => res.send(`posted ${++renders}`));
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server!.once("listening", resolve));
  const base = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  return {
    cache,
    base,
    renders: () => renders,
    advanceClock: (ms: number) => void (time += ms),
    setDatabase: (up: boolean) => void (databaseUp = up),
    /** Settles once the cache has taken `count` requests in all. */
    arrived: (count: number) =>
      new Promise<void>((resolve) => (count <= arrivals ? resolve() : arrivalWaiters.push({ count, resolve }))),
    /** Holds the next /slow renders until released; `entered` settles when one has begun. */
    holdSlow() {
      let release!: () => void;
      slowGate = new Promise((resolve) => (release = resolve));
      const entered = new Promise<void>((resolve) => (slowEntered = resolve));
      return { entered, release: () => release() };
    },
  };
}

describe("the public page cache", () => {
  test("serves a repeated page from memory with the same body, an ETag and Cache-Control", async () => {
    const { base, renders } = await start();
    const first = await fetch(`${base}/page`);
    const second = await fetch(`${base}/page`);
    expect(first.headers.get("x-cache")).toBe("MISS");
    expect(second.headers.get("x-cache")).toBe("HIT");
    expect(await first.text()).toBe("<p>render 1</p>");
    expect(await second.text()).toBe("<p>render 1</p>");
    expect(renders()).toBe(1);
    expect(first.headers.get("etag")).toMatch(/^W\/".+"$/);
    expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
    expect(first.headers.get("cache-control")).toBe(PUBLIC_CACHE_CONTROL);
    expect(first.headers.get("content-type")).toContain("text/html");
  });

  test("answers a matching If-None-Match with 304 and no body", async () => {
    const { base } = await start();
    const etag = (await fetch(`${base}/page`)).headers.get("etag")!;
    const again = await fetch(`${base}/page`, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    const other = await fetch(`${base}/page`, { headers: { "if-none-match": 'W/"stale"' } });
    expect(other.status).toBe(200);
  });

  test("shows a change once its time to live has passed, and not before", async () => {
    const { base, advanceClock } = await start({ ttlMs: 50 });
    expect(await (await fetch(`${base}/page`)).text()).toBe("<p>render 1</p>");
    advanceClock(49);
    expect(await (await fetch(`${base}/page`)).text()).toBe("<p>render 1</p>");
    advanceClock(1);
    expect(await (await fetch(`${base}/page`)).text()).toBe("<p>render 2</p>");
  });

  test("drops everything at once when cleared after an editorial change", async () => {
    const { base, cache } = await start();
    await fetch(`${base}/page`);
    cache.clear();
    expect(await (await fetch(`${base}/page`)).text()).toBe("<p>render 2</p>");
  });

  test("a render begun before a change is not kept, nor served to requests after the change", async () => {
    const { base, cache, holdSlow } = await start();
    const slow = holdSlow();
    const before = fetch(`${base}/slow`);
    await slow.entered;
    cache.clear();
    slow.release();
    expect(await (await before).text()).toBe("<p>slow 1</p>");
    expect(await (await fetch(`${base}/slow`)).text()).toBe("<p>slow 2</p>");
  });

  test("keeps a Cache-Control the route set itself", async () => {
    const { base } = await start();
    expect((await fetch(`${base}/feed`)).headers.get("cache-control")).toBe("public, max-age=60");
  });

  test("caches 404 pages but never errors, cookies, admin pages, posts or signed-in editors", async () => {
    const { base, renders } = await start();
    await fetch(`${base}/missing`);
    expect((await fetch(`${base}/missing`)).headers.get("x-cache")).toBe("HIT");
    for (const path of ["/broken", "/cookie", "/admin/stories"]) {
      await fetch(`${base}${path}`);
      expect((await fetch(`${base}${path}`)).headers.get("x-cache"), path).toBeNull();
    }
    const before = renders();
    await fetch(`${base}/page`, { method: "POST" });
    await fetch(`${base}/page`, { method: "POST" });
    expect(renders()).toBe(before + 2);
    await fetch(`${base}/page`);
    const editor = await fetch(`${base}/page`, { headers: { cookie: "better-auth.session_token=abc" } });
    expect(editor.headers.get("x-cache")).toBeNull();
  });

  test("renders a page once when many ask for it at the same time", async () => {
    const { base, renders, holdSlow, arrived } = await start();
    const slow = holdSlow();
    const bodies = Promise.all(Array.from({ length: 10 }, () => fetch(`${base}/slow`).then((r) => r.text())));
    // All ten are in before the one render may finish.
    await arrived(10);
    slow.release();
    expect(new Set(await bodies)).toEqual(new Set(["<p>slow 1</p>"]));
    expect(renders()).toBe(1);
  });

  test("while one request refreshes an expired page, the others get the previous version at once", async () => {
    const { base, renders, advanceClock, holdSlow } = await start({ ttlMs: 50, staleMs: 10_000 });
    await fetch(`${base}/slow`);
    advanceClock(50);
    const slow = holdSlow();
    const refreshing = fetch(`${base}/slow`);
    await slow.entered;
    const meanwhile = await fetch(`${base}/slow`);
    expect(meanwhile.headers.get("x-cache")).toBe("STALE");
    expect(await meanwhile.text()).toBe("<p>slow 1</p>");
    slow.release();
    expect(await (await refreshing).text()).toBe("<p>slow 2</p>");
    expect(renders()).toBe(2);
  });

  test("never serves a version older than its stale limit: others wait for the fresh one", async () => {
    const { base, renders, advanceClock, holdSlow, arrived } = await start({ ttlMs: 50, staleMs: 1_000 });
    await fetch(`${base}/slow`);
    advanceClock(1_000);
    const slow = holdSlow();
    const refreshing = fetch(`${base}/slow`);
    await slow.entered;
    const waiting = fetch(`${base}/slow`);
    await arrived(3);
    slow.release();
    const [fresh, waited] = await Promise.all([refreshing, waiting]);
    expect(await fresh.text()).toBe("<p>slow 2</p>");
    expect(waited.headers.get("x-cache")).toBe("HIT");
    expect(await waited.text()).toBe("<p>slow 2</p>");
    expect(renders()).toBe(2);
  });

  test("while pages fail to render, the last good version is served for up to ten minutes, then the failure shows", async () => {
    const site = await start({ ttlMs: 2_000, staleMs: 30_000, staleIfErrorMs: 600_000 });
    const good = await fetch(`${site.base}/outage`);
    expect(await good.text()).toBe("<p>outage 1</p>");
    site.setDatabase(false);
    site.advanceClock(5 * 60_000);
    const during = await fetch(`${site.base}/outage`);
    expect(during.status).toBe(200);
    expect(during.headers.get("x-cache")).toBe("STALE-IF-ERROR");
    expect(during.headers.get("cache-control")).toContain("stale-if-error=600");
    expect(await during.text()).toBe("<p>outage 1</p>");
    // Every request still tries to render: the site recovers by itself as soon as the database is back.
    expect(site.renders()).toBe(2);
    site.advanceClock(6 * 60_000);
    const tooOld = await fetch(`${site.base}/outage`);
    expect(tooOld.status).toBe(500);
    site.setDatabase(true);
    expect(await (await fetch(`${site.base}/outage`)).text()).toBe("<p>outage 4</p>");
  });
});
