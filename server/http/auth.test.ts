import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { outboxMailer, readOutbox } from "~/integrations/mail/mailer";
import { authRoute, createAuth } from "./auth";
import { compileTrust } from "./client-address";
import type { NodeHandler } from "./node-handler";
import { createLogger } from "../logger";
import { tempDir } from "~/test/temp-dir";

const t = testDatabaseForFile();
let server: Server;
let base: string;
let outbox: string;

beforeAll(async () => {
  outbox = tempDir("oddwire-auth-");
  // The site URL is only known once the server listens: build the auth lazily.
  const mounted: { handler?: NodeHandler } = {};
  server = createServer((req, res) => void mounted.handler!(req, res)).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  mounted.handler = authRoute(
    createAuth({
      db: t.db,
      secret: "a-test-secret-that-is-long-enough-0123456789",
      siteUrl: base,
      mailer: outboxMailer({ dir: outbox }),
      logger: createLogger({ level: "silent" }),
    }),
    compileTrust(["loopback"]),
  );
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(outbox, { recursive: true, force: true });
});

let calls = 0;
function post(pathname: string, body: unknown, headers: Record<string, string> = {}) {
  // Each call from its own address unless a test says otherwise: sign-in is rate limited per address.
  const address = `192.0.2.${++calls % 250}`;
  return fetch(`${base}/api/auth${pathname}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base, "x-forwarded-for": address, ...headers },
    body: JSON.stringify(body),
  });
}

function cookieOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

describe("e-mail and password accounts", () => {
  test("sign-up sends a verification link; sign-in waits for it; the link verifies and signs in", async () => {
    const signUp = await post("/sign-up/email", { email: "New.Editor@oddwire.test", password: "long-enough-1", name: "New Editor" });
    expect(signUp.status).toBe(200);

    const [mail] = (await readOutbox(outbox)).filter((m) => m.to === "new.editor@oddwire.test");
    expect(mail?.subject).toBe("Verify your e-mail for Oddwire");
    const link = /(https?:\/\/\S+)/.exec(mail!.text)?.[1];
    expect(link).toContain("/api/auth/verify-email?token=");

    const early = await post("/sign-in/email", { email: "new.editor@oddwire.test", password: "long-enough-1" });
    expect(early.status).toBe(403);

    const verify = await fetch(link!, { redirect: "manual" });
    expect([200, 302]).toContain(verify.status);

    const signIn = await post("/sign-in/email", { email: "new.editor@oddwire.test", password: "long-enough-1" });
    expect(signIn.status).toBe(200);
    const setCookie = signIn.headers.getSetCookie().join("\n");
    expect(setCookie).toMatch(/session_token=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);

    const session = await fetch(`${base}/api/auth/get-session`, { headers: { cookie: cookieOf(signIn) } });
    const body = (await session.json()) as { user: { email: string; isAdmin: boolean; emailVerified: boolean } };
    expect(body.user).toMatchObject({ email: "new.editor@oddwire.test", isAdmin: false, emailVerified: true });
  });

  test("a new account cannot make itself an admin", async () => {
    await post("/sign-up/email", { email: "sneaky@oddwire.test", password: "long-enough-1", name: "S", isAdmin: true });
    const user = await t.repos.users.findByEmail("sneaky@oddwire.test");
    expect(user?.isAdmin ?? false).toBe(false);
  });

  test("a wrong password is refused with the auth service's message", async () => {
    const response = await post("/sign-in/email", { email: "nobody@oddwire.test", password: "wrong-password" });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { message: string }).message).toBe("Invalid email or password");
  });

  test("sign-in is rate limited per address", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const response = await post("/sign-in/email", { email: "limit@oddwire.test", password: "wrong-password" }, { "x-forwarded-for": "203.0.113.9" });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 5).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(5)).toEqual([429, 429]);
    // Another address is not limited.
    const other = await post("/sign-in/email", { email: "limit@oddwire.test", password: "wrong-password" }, { "x-forwarded-for": "203.0.113.10" });
    expect(other.status).toBe(401);
  });

  test("a client cannot choose the address it is limited by", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const response = await post("/sign-in/email", { email: "spoof@oddwire.test", password: "wrong-password" }, { "x-forwarded-for": "203.0.113.20", "x-oddwire-client-ip": `198.51.100.${i}` });
      statuses.push(response.status);
    }
    expect(statuses).toContain(429);
  });

  test("a forgotten password is reset through the e-mailed link", async () => {
    await post("/sign-up/email", { email: "forgetful@oddwire.test", password: "first-password-1", name: "F" });
    const verifyLink = /(https?:\/\/\S+)/.exec((await readOutbox(outbox)).find((m) => m.to === "forgetful@oddwire.test")!.text)![1]!;
    await fetch(verifyLink, { redirect: "manual" });

    expect((await post("/request-password-reset", { email: "forgetful@oddwire.test", redirectTo: "/reset-password" })).status).toBe(200);
    const mail = (await readOutbox(outbox)).find((m) => m.to === "forgetful@oddwire.test" && m.subject === "Reset your Oddwire password");
    const link = /(https?:\/\/\S+)/.exec(mail!.text)![1]!;
    const landing = await fetch(link, { redirect: "manual" });
    const location = new URL(landing.headers.get("location")!, base);
    expect(location.pathname).toBe("/reset-password");
    const token = location.searchParams.get("token")!;

    expect((await post("/reset-password", { newPassword: "second-password-2", token })).status).toBe(200);
    expect((await post("/sign-in/email", { email: "forgetful@oddwire.test", password: "first-password-1" })).status).toBe(401);
    expect((await post("/sign-in/email", { email: "forgetful@oddwire.test", password: "second-password-2" })).status).toBe(200);
  });
});

async function verifiedUser(email: string, password: string) {
  await post("/sign-up/email", { email, password, name: "Editor" });
  const link = /(https?:\/\/\S+)/.exec((await readOutbox(outbox)).find((m) => m.to === email)!.text)![1]!;
  await fetch(link, { redirect: "manual" });
}

async function signInAs(email: string, password: string): Promise<{ response: Response; cookie: string }> {
  const response = await post("/sign-in/email", { email, password });
  expect(response.status).toBe(200);
  return { response, cookie: cookieOf(response) };
}

async function sessionUser(cookie: string): Promise<string | null> {
  const response = await fetch(`${base}/api/auth/get-session`, { headers: { cookie } });
  const body = (await response.json()) as { user?: { email: string } } | null;
  return body?.user?.email ?? null;
}

describe("sessions", () => {
  test("the session token travels in the HttpOnly cookie only, never in a JSON answer", async () => {
    await verifiedUser("cookie.only@oddwire.test", "long-enough-1");
    const { response, cookie } = await signInAs("cookie.only@oddwire.test", "long-enough-1");
    const token = decodeURIComponent(/session_token=([^;.]+)/.exec(cookie)![1]!);
    const signInBody = (await response.json()) as Record<string, unknown>;
    expect(signInBody).not.toHaveProperty("token");
    expect(signInBody.user).toMatchObject({ email: "cookie.only@oddwire.test" });

    for (const pathname of ["/get-session", "/list-sessions"]) {
      const answer = await fetch(`${base}/api/auth${pathname}`, { headers: { cookie } });
      expect(answer.status).toBe(200);
      const text = await answer.text();
      expect(text, pathname).not.toContain(token);
      expect(text, pathname).not.toMatch(/"token"/);
    }
    const signUp = await post("/sign-up/email", { email: "fresh@oddwire.test", password: "long-enough-1", name: "F" });
    expect(await signUp.json()).not.toHaveProperty("token");
  });

  test("changing the password keeps the session that changed it and ends every other one", async () => {
    await verifiedUser("changer@oddwire.test", "first-password-1");
    const here = await signInAs("changer@oddwire.test", "first-password-1");
    const elsewhere = await signInAs("changer@oddwire.test", "first-password-1");
    expect(await sessionUser(elsewhere.cookie)).toBe("changer@oddwire.test");

    // Even a caller that asks to keep the other sessions has them ended.
    const change = await post(
      "/change-password",
      { currentPassword: "first-password-1", newPassword: "second-password-2", revokeOtherSessions: false },
      { cookie: here.cookie },
    );
    expect(change.status).toBe(200);
    expect(await change.json()).not.toHaveProperty("token");
    const renewed = cookieOf(change);
    expect(renewed).toMatch(/session_token=/);

    expect(await sessionUser(elsewhere.cookie)).toBeNull();
    expect(await sessionUser(renewed)).toBe("changer@oddwire.test");
    expect((await post("/sign-in/email", { email: "changer@oddwire.test", password: "first-password-1" })).status).toBe(401);
  });

  test("resetting a forgotten password ends every session of the account", async () => {
    await verifiedUser("reset.all@oddwire.test", "first-password-1");
    const phone = await signInAs("reset.all@oddwire.test", "first-password-1");
    const laptop = await signInAs("reset.all@oddwire.test", "first-password-1");

    await post("/request-password-reset", { email: "reset.all@oddwire.test", redirectTo: "/reset-password" });
    const mail = (await readOutbox(outbox)).find((m) => m.to === "reset.all@oddwire.test" && m.subject === "Reset your Oddwire password");
    const landing = await fetch(/(https?:\/\/\S+)/.exec(mail!.text)![1]!, { redirect: "manual" });
    const token = new URL(landing.headers.get("location")!, base).searchParams.get("token")!;
    expect((await post("/reset-password", { newPassword: "second-password-2", token })).status).toBe(200);

    expect(await sessionUser(phone.cookie)).toBeNull();
    expect(await sessionUser(laptop.cookie)).toBeNull();
  });
});
