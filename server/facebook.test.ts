import { rmSync } from "node:fs";
import { afterAll, beforeAll, expect, test } from "vitest";
import { isGraphError } from "~/integrations/facebook/graph-client";
import { startFakeGraph, type FakeGraph } from "~/integrations/facebook/testing/fake-graph";
import { capturedLog } from "~/test/captured-log";
import { loadConfig } from "./config";
import { createFacebookGraph } from "./facebook";
import { tempDir } from "~/test/temp-dir";

let fake: FakeGraph;
let dataDir: string;
beforeAll(async () => {
  fake = await startFakeGraph();
  dataDir = tempDir("oddwire-facebook-");
});
afterAll(async () => {
  await fake.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test("the configured Page's client scrubs every configured secret, not only its token, from Facebook's errors", async () => {
  const authSecret = "auth-secret-echoed-by-facebook-0123456789";
  const dbPassword = "db-password-echoed-0123";
  const config = loadConfig({
    DATA_DIR: dataDir,
    AUTH_SECRET: authSecret,
    DATABASE_URL: `postgres://oddwire:${dbPassword}@db.example/oddwire`,
    FACEBOOK_PAGE_ID: fake.pageId,
    FACEBOOK_PAGE_TOKEN: fake.pageToken,
    FACEBOOK_GRAPH_URL: fake.url,
  });
  fake.answerOnce("feed", { kind: "error", error: { message: `(#100) Bad ${authSecret} ${dbPassword}`, code: 100, fbtrace_id: `A${authSecret}` } });
  const { logger } = capturedLog();
  const graph = createFacebookGraph(config, logger)!;
  try {
    const failure = await graph.publishPost({ message: "Hello", link: "https://oddwire.example/story/x" }).catch((error: unknown) => error);
    expect(isGraphError(failure) && failure.toView()).toMatchObject({ code: 100, fbtraceId: "A[token]" });
    const said = JSON.stringify(failure) + String(failure);
    expect(said).toContain("Bad [token] [token]");
    for (const secret of [authSecret, dbPassword]) expect(said).not.toContain(secret);
  } finally {
    await graph.close();
  }
});
