import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { serveFixtures, type FixtureServer } from "~/test/fixture-server";
import { requestJson } from "./admin-fetch";

let site: FixtureServer;
beforeAll(async () => {
  site = await serveFixtures({
    routes: {
      "/ok": { body: JSON.stringify({ jobId: "42" }), headers: { "content-type": "application/json" } },
      "/refused": { status: 400, body: JSON.stringify({ error: "Paste one or more valid URLs first." }), headers: { "content-type": "application/json" } },
      "/broken": { status: 500, body: "<h1>oops</h1>", headers: { "content-type": "text/html" } },
      "/signed-out": { status: 401, body: JSON.stringify({ gate: "signed-out" }), headers: { "content-type": "application/json" } },
    },
  });
});
afterAll(() => site.close());

/** A port nothing listens on: taken, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("calling an admin endpoint", () => {
  test("a JSON answer comes back as its body", async () => {
    expect(await requestJson(`${site.url}/ok`, { method: "POST", body: { use_canonical: true } })).toEqual({ kind: "ok", status: 200, body: { jobId: "42" } });
    const sent = site.requests.at(-1);
    expect(sent?.method).toBe("POST");
    expect(sent?.headers["content-type"]).toBe("application/json");
  });

  test("a refusal carries the server's message", async () => {
    expect(await requestJson(`${site.url}/refused`, { method: "POST", body: {} })).toEqual({ kind: "error", status: 400, message: "Paste one or more valid URLs first." });
  });

  test("a failure without a JSON message has no message", async () => {
    expect(await requestJson(`${site.url}/broken`)).toEqual({ kind: "error", status: 500, message: null });
  });

  test("an ended session says so", async () => {
    expect(await requestJson(`${site.url}/signed-out`)).toEqual({ kind: "error", status: 401, message: "Your session has ended. Sign in again." });
  });

  test("no answer at all is a network failure", async () => {
    const answer = await requestJson(`http://127.0.0.1:${await closedPort()}/`);
    expect(answer.kind).toBe("network");
  });
});
