import { verifyPassword } from "better-auth/crypto";
import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { accounts, users } from "~/db/schema";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { DomainError } from "~/domain/errors";
import { createUser, ensureUser, grantAdmin } from "./users";

const t = testDatabaseForFile();
const deps = () => ({ users: t.repos.users });

/** The DomainError code a call fails with. */
async function domainCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return (error as DomainError).code;
  }
  throw new Error("expected a DomainError, but the call succeeded");
}

async function credentialOf(userId: string) {
  const rows = await t.db.select().from(accounts).where(eq(accounts.userId, userId));
  expect(rows).toHaveLength(1);
  const [account] = rows;
  expect(account?.providerId).toBe("credential");
  expect(account?.accountId).toBe(userId);
  return account?.password ?? "";
}

async function storedUser(id: string) {
  const [row] = await t.db.select().from(users).where(eq(users.id, id));
  if (!row) throw new Error(`no user ${id}`);
  return row;
}

describe("createUser", () => {
  test("makes a user with a 'credential' account whose password verifies", async () => {
    const user = await createUser(deps(), { email: "editor@oddwire.test", password: "correct horse" });
    expect(user).toMatchObject({ email: "editor@oddwire.test", name: "editor", isAdmin: false, emailVerified: true });

    const hash = await credentialOf(user.id);
    expect(hash).not.toBe("correct horse");
    expect(hash).not.toContain("correct horse");
    expect(await verifyPassword({ hash, password: "correct horse" })).toBe(true);
    expect(await verifyPassword({ hash, password: "wrong horse!" })).toBe(false);
  });

  test("stores the e-mail in lower case", async () => {
    const user = await createUser(deps(), { email: "Editor@OddWire.TEST", password: "correct horse" });
    expect(user.email).toBe("editor@oddwire.test");
    expect((await storedUser(user.id)).email).toBe("editor@oddwire.test");
  });

  test("uses the given name", async () => {
    const user = await createUser(deps(), { email: "ada@oddwire.test", password: "correct horse", name: "Ada" });
    expect((await storedUser(user.id)).name).toBe("Ada");
  });

  test("makes an admin only when asked to", async () => {
    const plain = await createUser(deps(), { email: "plain@oddwire.test", password: "correct horse" });
    const notAdmin = await createUser(deps(), { email: "no@oddwire.test", password: "correct horse", admin: false });
    const admin = await createUser(deps(), { email: "boss@oddwire.test", password: "correct horse", admin: true });

    expect((await storedUser(plain.id)).isAdmin).toBe(false);
    expect((await storedUser(notAdmin.id)).isAdmin).toBe(false);
    expect((await storedUser(admin.id)).isAdmin).toBe(true);
    expect(admin.isAdmin).toBe(true);
  });

  test.each(["editor@oddwire.test", "EDITOR@oddwire.test", "Editor@Oddwire.Test"])(
    "refuses a taken e-mail, written as %s, with USER_EXISTS",
    async (email) => {
      await createUser(deps(), { email: "editor@oddwire.test", password: "correct horse" });
      expect(await domainCode(createUser(deps(), { email, password: "another one" }))).toBe("USER_EXISTS");
      expect(await t.db.select().from(users)).toHaveLength(1);
    },
  );

  test.each([
    ["a malformed e-mail", { email: "not-an-email", password: "correct horse" }],
    ["an empty e-mail", { email: "", password: "correct horse" }],
    ["a password shorter than 8 characters", { email: "editor@oddwire.test", password: "short" }],
    ["a password longer than 128 characters", { email: "editor@oddwire.test", password: "x".repeat(129) }],
  ])("refuses %s with INVALID_INPUT", async (_case, input) => {
    expect(await domainCode(createUser(deps(), input))).toBe("INVALID_INPUT");
    expect(await t.db.select().from(users)).toHaveLength(0);
  });

  test("the INVALID_INPUT message names the field but not the password", async () => {
    const error = await createUser(deps(), { email: "editor@oddwire.test", password: "secr3t" }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).message).toContain("password");
    expect((error as DomainError).message).not.toContain("secr3t");
  });
});

describe("grantAdmin", () => {
  test("sets the admin flag of an existing user", async () => {
    const user = await createUser(deps(), { email: "editor@oddwire.test", password: "correct horse" });
    const granted = await grantAdmin(deps(), "editor@oddwire.test");
    expect(granted).toMatchObject({ id: user.id, isAdmin: true });
    expect((await storedUser(user.id)).isAdmin).toBe(true);
  });

  test("finds the user whatever the case and surrounding spaces of the e-mail", async () => {
    const user = await createUser(deps(), { email: "editor@oddwire.test", password: "correct horse" });
    await grantAdmin(deps(), "  Editor@ODDWIRE.test ");
    expect((await storedUser(user.id)).isAdmin).toBe(true);
  });

  test("refuses an unknown e-mail with USER_NOT_FOUND", async () => {
    expect(await domainCode(grantAdmin(deps(), "nobody@oddwire.test"))).toBe("USER_NOT_FOUND");
  });
});

describe("ensureUser", () => {
  test("creates the user the first time, then keeps that one user and resets the password", async () => {
    const first = await ensureUser(deps(), { email: "admin@oddwire.test", password: "first password", admin: true });
    expect(first.created).toBe(true);

    const second = await ensureUser(deps(), { email: "admin@oddwire.test", password: "second password", admin: true });
    expect(second).toMatchObject({ created: false, user: { id: first.user.id, isAdmin: true } });
    expect(await t.db.select().from(users)).toHaveLength(1);

    const hash = await credentialOf(first.user.id);
    expect(await verifyPassword({ hash, password: "second password" })).toBe(true);
    expect(await verifyPassword({ hash, password: "first password" })).toBe(false);
  });

  test("makes an existing plain user an admin when asked to", async () => {
    const plain = await createUser(deps(), { email: "editor@oddwire.test", password: "correct horse" });
    const ensured = await ensureUser(deps(), { email: "editor@oddwire.test", password: "correct horse", admin: true });
    expect(ensured.user.isAdmin).toBe(true);
    expect((await storedUser(plain.id)).isAdmin).toBe(true);
  });

  test("never takes the admin flag away", async () => {
    const admin = await createUser(deps(), { email: "boss@oddwire.test", password: "correct horse", admin: true });
    const ensured = await ensureUser(deps(), { email: "boss@oddwire.test", password: "correct horse", admin: false });
    expect(ensured.user.isAdmin).toBe(true);
    expect((await storedUser(admin.id)).isAdmin).toBe(true);
  });
});
