import type { AppLoadContext } from "react-router";
import { describe, expect, test } from "vitest";
import { requireAdmin } from "./admin.server";

const SITE = "https://oddwire.test";

function contextFor(user: { id: string; isAdmin: boolean } | null): AppLoadContext {
  return {
    getSessionUser: async () => (user ? { id: user.id, email: `${user.id}@oddwire.test`, name: user.id, emailVerified: true } : null),
    repos: { users: { findById: async () => (user ? { isAdmin: user.isAdmin } : null) } },
    config: { siteUrl: SITE, contactEmail: "tips@oddwire.test", socialUrl: "" },
    logger: { warn: () => {}, error: () => {} },
  } as unknown as AppLoadContext;
}

async function statusOf(promise: Promise<unknown>): Promise<number | "allowed"> {
  try {
    await promise;
    return "allowed";
  } catch (thrown) {
    return (thrown as { init?: { status?: number } }).init?.status ?? -1;
  }
}

const get = new Request(`${SITE}/admin`);
const post = (origin: string | null) =>
  new Request(`${SITE}/admin/users`, { method: "POST", headers: origin ? { origin } : {}, body: new URLSearchParams({ a: "1" }) });

describe("the admin gate", () => {
  test("answers 401 without a session and 403 without the admin flag", async () => {
    expect(await statusOf(requireAdmin({ request: get, context: contextFor(null) }))).toBe(401);
    expect(await statusOf(requireAdmin({ request: get, context: contextFor({ id: "ed", isAdmin: false }) }))).toBe(403);
  });

  test("lets an admin read, and change from our own origin only", async () => {
    const admin = contextFor({ id: "boss", isAdmin: true });
    expect(await statusOf(requireAdmin({ request: get, context: admin }))).toBe("allowed");
    expect(await statusOf(requireAdmin({ request: post(SITE), context: admin }))).toBe("allowed");
    expect(await statusOf(requireAdmin({ request: post("https://evil.example"), context: admin }))).toBe(403);
    expect(await statusOf(requireAdmin({ request: post(null), context: admin }))).toBe(403);
  });
});
