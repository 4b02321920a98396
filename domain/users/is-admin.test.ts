import { describe, expect, test } from "vitest";
import { makeUser } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { isAdmin } from "./is-admin";

const t = testDatabaseForFile();

describe("is_admin", () => {
  const errors: unknown[] = [];
  const logger = { error: (obj: object) => void errors.push(obj) };

  test("is true for a user with the admin flag and false for others", async () => {
    const admin = await makeUser(t.db, { isAdmin: true });
    const editor = await makeUser(t.db);
    expect(await isAdmin({ users: t.repos.users, logger }, admin.id)).toBe(true);
    expect(await isAdmin({ users: t.repos.users, logger }, editor.id)).toBe(false);
    expect(await isAdmin({ users: t.repos.users, logger }, "00000000-0000-0000-0000-000000000000")).toBe(false);
  });

  test("treats any failure as not an admin, and logs it", async () => {
    const failing = { findById: () => Promise.reject(new Error("database down")) };
    expect(await isAdmin({ users: failing, logger }, "x")).toBe(false);
    expect(errors).toHaveLength(1);
  });
});
