import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestServer, type TestServer } from "~/test/http-test-server";
import { runCli, useCliEnvironment } from "~/test/cli-harness";

let site: TestServer;
const cliEnvironment = useCliEnvironment("oddwire-cli-images");
beforeAll(async () => {
  site = await startTestServer();
  const photo = await sharp({ create: { width: 1600, height: 900, channels: 3, background: "#246" } }).jpeg().toBuffer();
  site.handle("/photo.jpg", (_req, res) => res.writeHead(200, { "content-type": "image/jpeg", "content-length": String(photo.length) }).end(photo));
  site.handle("/page.html", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<p>not an image</p>"));
  site.handle("/article", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(`<meta property="og:image" content="${site.url}/photo.jpg">`));
});
afterAll(() => site.close());

describe("image commands", () => {
  test("probe-image prints an image's size and type from its header", async () => {
    const { code, json } = await runCli(["probe-image", `${site.url}/photo.jpg`]);
    expect(code).toBe(0);
    expect(json()).toEqual({ url: `${site.url}/photo.jpg`, width: 1600, height: 900, type: "jpg", bytes: expect.any(Number) });
  });

  test("probe-image of a page that is no image fails with its code", async () => {
    const { code, err } = await runCli(["probe-image", `${site.url}/page.html`]);
    expect(code).toBe(1);
    expect(JSON.parse(err[0]!).error.code).toBe("NOT_AN_IMAGE");
  });

  test("enhance-images runs a batch, printing the result and its progress on stderr", async () => {
    const added = await runCli(["source:add", "--name", "Images", "--type", "manual"]);
    expect(added.code).toBe(0);
    // A story to enhance, through the same database the command opens.
    const { openEmbeddedDatabase } = await import("../database");
    const { makeStory } = await import("~/db/testing/factories");
    const database = await openEmbeddedDatabase(cliEnvironment.dataDir());
    try {
      await makeStory(database.db, { imageUrl: null, originalUrl: `${site.url}/article` });
    } finally {
      await database.close();
    }
    const { code, json, err } = await runCli(["enhance-images", "--limit", "5"]);
    expect(code).toBe(0);
    expect(json()).toMatchObject({ processed: 1, enhanced: 1, failed: 0, skipped: 0, details: [{ success: true, imageUrl: `${site.url}/photo.jpg` }] });
    expect(err.map((l) => JSON.parse(l)).at(-1)).toEqual({ progress: { done: 1, total: 1, enhanced: 1, failed: 0, skipped: 0 } });
  });

  test("--image needs --story", async () => {
    const { code } = await runCli(["enhance-images", "--image", "https://img.example/a.jpg"]);
    expect(code).toBe(2);
  });
});
