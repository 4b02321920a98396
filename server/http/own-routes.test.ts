import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { startTestWebServer, testServerBuild } from "~/test/web-server";
import type { WebServer } from "./web";
import { OWN_ROUTES, ownRouteOf, type OwnRouteName } from "./own-routes";

// The web server in front of a real database, with a one-route app standing in for the React build:
// every path and method the server does not answer itself reaches it, and it says so.
const t = testDatabaseForFile();
const PAGES = "answered by the pages";
const pages = async ({ request }: { request: Request }) => new Response(`${PAGES}: ${request.method} ${new URL(request.url).pathname}`, { headers: { "Content-Type": "text/plain" } });
const build = testServerBuild({
  entry: { module: { default: () => new Response("documents are not part of this test", { status: 500 }) } },
  routes: {
    root: { id: "root", path: "", module: {} },
    everything: { id: "everything", parentId: "root", path: "*", module: { loader: pages, action: pages } },
  },
  assets: { entry: { module: "", imports: [] }, routes: {}, url: "", version: "1" },
});

/** An address of each row of the table, and what its handler answers a GET of it with. */
const SAMPLES: Record<OwnRouteName, { path: string; status: number; body: (text: string) => void }> = {
  // Nobody is signed in: the auth service's session is null.
  auth: { path: "/api/auth/get-session", status: 200, body: (text) => expect(JSON.parse(text)).toBeNull() },
  // A picture of a story that does not exist: the image route's own 404.
  image: { path: "/img/1/00000000/800", status: 404, body: (text) => expect(text).toBe("Not found") },
  healthz: { path: "/healthz", status: 200, body: (text) => expect(JSON.parse(text)).toEqual({ ok: true }) },
  readyz: { path: "/readyz", status: 200, body: (text) => expect(JSON.parse(text)).toEqual({ ready: true }) },
  // Without METRICS_TOKEN the handler answers as if the address did not exist.
  metrics: { path: "/metrics", status: 404, body: (text) => expect(text).toBe("Not found") },
};

let server: WebServer;
beforeAll(async () => {
  server = await startTestWebServer(t.database, build);
});
afterAll(async () => {
  await server.close();
});

const request = (path: string, method = "GET") => fetch(`${server.url}${path}`, { method, redirect: "manual" });

describe("the table of the server's own addresses", () => {
  test("every row's address is answered by its handler, never by the pages; HEAD as GET without the body", async () => {
    expect(Object.keys(SAMPLES).sort()).toEqual(OWN_ROUTES.map((route) => route.handler).sort());
    for (const route of OWN_ROUTES) {
      const sample = SAMPLES[route.handler];
      expect(ownRouteOf("GET", sample.path), route.handler).toBe(route.handler);
      const answer = await request(sample.path);
      expect(answer.status, route.handler).toBe(sample.status);
      sample.body(await answer.text());
      if (route.methods === "any") continue;
      const head = await request(sample.path, "HEAD");
      expect(head.status, `HEAD ${route.handler}`).toBe(sample.status);
      expect(head.headers.get("content-length"), `HEAD ${route.handler}`).toBe(answer.headers.get("content-length"));
      expect(await head.text(), `HEAD ${route.handler}`).toBe("");
    }
  });

  test("another method of an address that answers GET and HEAD only goes on to the pages", async () => {
    for (const [path, method] of [
      ["/healthz", "POST"],
      ["/readyz", "DELETE"],
      ["/metrics", "PUT"],
      ["/img/1/00000000/800", "POST"],
    ] as const) {
      expect(ownRouteOf(method, path)).toBeNull();
      const answer = await request(path, method);
      expect(await answer.text()).toBe(`${PAGES}: ${method} ${path}`);
    }
  });

  test("the auth service takes every method under its prefix", async () => {
    expect(ownRouteOf("POST", "/api/auth/sign-in/email")).toBe("auth");
    expect(ownRouteOf("DELETE", "/api/auth/anything")).toBe("auth");
    const answer = await fetch(`${server.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ email: "nobody@oddwire.test", password: "wrong-password" }),
    });
    expect(answer.status).toBe(401);
  });

  test("an address not in the table, however close to one, is the pages'", async () => {
    for (const path of ["/healthz/", "/HEALTHZ", "/readyz.json", "/metrics/x", "/api/auth", "/api/authx/get-session", "/img", "/img/1", "/imgx/1/00000000/800", "/healthcheck"]) {
      expect(ownRouteOf("GET", path), path).toBeNull();
      const answer = await request(path);
      expect(answer.status, path).toBe(200);
      expect(await answer.text(), path).toBe(`${PAGES}: GET ${path}`);
    }
  });
});
