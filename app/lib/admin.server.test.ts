import type { AppLoadContext } from "react-router";
import { describe, expect, test } from "vitest";
import { refusalOf, routeContext } from "~/test/route-context";
import { requireAdmin, type GateRefusal } from "./admin.server";

const SITE = "https://oddwire.test";

const userRow = ({ id, isAdmin }: { id: string; isAdmin: boolean }) => ({
  id,
  name: id,
  email: `${id}@oddwire.test`,
  emailVerified: true,
  image: null,
  isAdmin,
  createdAt: new Date(0),
  updatedAt: new Date(0),
});

function contextFor(user: { id: string; isAdmin: boolean } | null): AppLoadContext {
  return routeContext({
    getSessionUser: async () => (user ? { id: user.id, email: `${user.id}@oddwire.test`, name: user.id, emailVerified: true } : null),
    repos: { users: { findById: async () => (user ? userRow(user) : null) } },
    config: { siteUrl: SITE, contactEmail: "tips@oddwire.test", socialUrl: "" },
    logger: { warn: () => {}, error: () => {} },
  });
}

async function statusOf(promise: Promise<unknown>): Promise<number | "allowed"> {
  return (await refusalOf(promise))?.status ?? "allowed";
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

  test("with SITE_URL unset, a change is accepted from either loopback spelling of the port, and from no other", async () => {
    const admin = routeContext({
      ...contextFor({ id: "boss", isAdmin: true }),
      config: { siteUrl: "http://localhost:3000", contactEmail: "tips@oddwire.test", socialUrl: "" },
      trustedOrigins: ["http://localhost:3000", "http://127.0.0.1:3000"],
    });
    const change = (origin: string) =>
      new Request(`${origin}/admin/users`, { method: "POST", headers: { origin }, body: new URLSearchParams({ a: "1" }) });
    expect(await statusOf(requireAdmin({ request: change("http://localhost:3000"), context: admin }))).toBe("allowed");
    expect(await statusOf(requireAdmin({ request: change("http://127.0.0.1:3000"), context: admin }))).toBe("allowed");
    expect(await statusOf(requireAdmin({ request: change("http://127.0.0.1:3001"), context: admin }))).toBe(403);
    expect(await statusOf(requireAdmin({ request: change("https://localhost:3000"), context: admin }))).toBe(403);
  });

  test("a change from another address is refused with which address to use, for the screen and for JSON callers", async () => {
    const admin = contextFor({ id: "boss", isAdmin: true });
    const refusal = await refusalOf(requireAdmin({ request: post("http://127.0.0.1:3000"), context: admin }));
    expect(refusal?.status).toBe(403);
    expect(refusal?.body).toEqual<GateRefusal>({
      gate: "foreign-origin",
      origin: "http://127.0.0.1:3000",
      siteOrigin: SITE,
      error:
        "This page was opened at http://127.0.0.1:3000, but changes are accepted only from the site's own address, https://oddwire.test. Open https://oddwire.test/admin and try again, or set SITE_URL to the address you use.",
    });
  });
});
