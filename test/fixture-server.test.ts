import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { corpusPath } from "./corpora";
import { serveFixtures, type FixtureServer } from "./fixture-server";

describe("the fixture server", () => {
  let server: FixtureServer;
  const root = path.dirname(corpusPath("miniflux/expectations.json"));

  beforeAll(async () => {
    server = await serveFixtures({
      root,
      routes: {
        "/feed": { file: corpusPath("crawler-commons/robots/wildcards.txt"), headers: { etag: '"v1"' } },
        "/teapot": { body: "short and stout", status: 418 },
      },
    });
  });
  afterAll(() => server.close());

  test("serves a corpus file byte for byte on 127.0.0.1 with the route's headers", async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${server.url}/feed`);
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).toBe('"v1"');
    expect(Buffer.from(await response.arrayBuffer())).toEqual(
      readFileSync(corpusPath("crawler-commons/robots/wildcards.txt")),
    );
  });

  test("serves files under its root with a content type from the extension", async () => {
    const response = await fetch(`${server.url}/expectations.json`);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toEqual(JSON.parse(readFileSync(path.join(root, "expectations.json"), "utf8")));
  });

  test("answers bodies with their status, unknown paths with 404, and records requests", async () => {
    const teapot = await fetch(`${server.url}/teapot`, { headers: { "if-none-match": '"x"' } });
    expect(teapot.status).toBe(418);
    expect(await teapot.text()).toBe("short and stout");
    expect((await fetch(`${server.url}/nope.xml`)).status).toBe(404);
    expect((await fetch(`${server.url}/../../etc/passwd`)).status).toBe(404);
    expect(server.requests.find((r) => r.path === "/teapot")?.headers["if-none-match"]).toBe('"x"');
  });
});
