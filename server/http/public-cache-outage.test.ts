import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { closeSites, startCachedSite as start, tempDir } from "~/test/public-cache-site";

// The public page cache while pages fail to render (a database outage): the last good version, from
// this process or from the copies every web process shares, else the maintenance page.
afterEach(closeSites);

describe("the public page cache while pages fail to render", () => {
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

  test("a page one web process rendered is served by another while pages fail to render, for up to ten minutes after its render", async () => {
    // Two caches over one directory of copies, as two web processes on one machine.
    const copiesDir = tempDir();
    const one = await start({ maintenance: true, copiesDir });
    const other = await start({ maintenance: true, copiesDir });
    const good = await fetch(`${one.base}/outage`);
    expect(await good.text()).toBe("<p>outage 1</p>");
    // Written once the answer has gone.
    await expect.poll(() => other.cache.copies!.read("/outage")).toBeDefined();
    for (const site of [one, other]) {
      site.setDatabase(false);
      site.advanceClock(9 * 60_000);
    }
    for (const site of [other, one]) {
      const during = await fetch(`${site.base}/outage`);
      expect(during.status).toBe(200);
      expect(during.headers.get("x-cache")).toBe("STALE-IF-ERROR");
      expect(during.headers.get("etag")).toBe(good.headers.get("etag"));
      expect(await during.text()).toBe("<p>outage 1</p>");
    }
    // Ten minutes after its render the copy is too old, in every process.
    for (const site of [one, other]) site.advanceClock(60_000);
    for (const site of [other, one]) expect((await fetch(`${site.base}/outage`)).status).toBe(503);
  });

  test("clearing the cache (an editorial change, or a reconnect to the database) leaves the shared copies, served while pages fail", async () => {
    const site = await start({ maintenance: true, copiesDir: tempDir() });
    expect(await (await fetch(`${site.base}/outage`)).text()).toBe("<p>outage 1</p>");
    await expect.poll(() => site.cache.copies!.read("/outage")).toBeDefined();
    site.cache.clear();
    site.setDatabase(false);
    site.advanceClock(60_000);
    const during = await fetch(`${site.base}/outage`);
    expect(during.status).toBe(200);
    expect(during.headers.get("x-cache")).toBe("STALE-IF-ERROR");
    expect(await during.text()).toBe("<p>outage 1</p>");
    // The database back, the page is rendered again and its copy replaced.
    site.setDatabase(true);
    expect(await (await fetch(`${site.base}/outage`)).text()).toBe("<p>outage 3</p>");
    await expect.poll(async () => (await site.cache.copies!.read("/outage"))?.variants.identity.body.toString()).toBe("<p>outage 3</p>");
  });

  test("a copy that cannot be written (a full or read-only disk) leaves pages answered, and says why", async () => {
    // The copies' directory cannot be made: a file stands where it would be.
    const blocked = path.join(tempDir(), "cache");
    writeFileSync(blocked, "not a directory");
    const failures: string[] = [];
    const site = await start({ maintenance: true, copiesDir: path.join(blocked, "pages"), onCopyError: (error, action) => failures.push(`${action}: ${String(error)}`) });
    const good = await fetch(`${site.base}/outage`);
    expect(good.status).toBe(200);
    expect(await good.text()).toBe("<p>outage 1</p>");
    await expect.poll(() => failures).toEqual([expect.stringMatching(/^keep: Error: (ENOTDIR|EEXIST)/)]);
    // The process's own last good version still serves while pages fail.
    site.setDatabase(false);
    site.advanceClock(60_000);
    const during = await fetch(`${site.base}/outage`);
    expect(during.status).toBe(200);
    expect(during.headers.get("x-cache")).toBe("STALE-IF-ERROR");
  });

  test("a page that fails while the database is down, with no good copy kept, is the maintenance page; other failures are not", async () => {
    const site = await start({ maintenance: true });
    site.setDatabase(false);
    const down = await fetch(`${site.base}/outage`);
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("30");
    expect(down.headers.get("cache-control")).toBe("no-store");
    expect(down.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(down.headers.get("x-cache")).toBe("MAINTENANCE");
    expect(await down.text()).toBe("<p>Back in a moment</p>");
    // Nothing of it is kept: the database back, the page renders.
    site.setDatabase(true);
    expect(await (await fetch(`${site.base}/outage`)).text()).toBe("<p>outage 2</p>");
    // A page that fails with the database up is its own failure, as it was rendered.
    const broken = await fetch(`${site.base}/broken`);
    expect(broken.status).toBe(500);
    expect(await broken.text()).toBe("oops");
    // A good copy kept wins over the maintenance page.
    site.setDatabase(false);
    site.advanceClock(60_000);
    const stale = await fetch(`${site.base}/outage`);
    expect(stale.status).toBe(200);
    expect(stale.headers.get("x-cache")).toBe("STALE-IF-ERROR");
  });

});
