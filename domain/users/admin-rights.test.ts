import { describe, expect, test } from "vitest";
import { makeUser } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { listUsers, setAdminRight } from "./admin-rights";

const t = testDatabaseForFile();

describe("admin rights", () => {
  test("an admin grants the admin right, and the audit trail says who did it", async () => {
    const admin = await makeUser(t.db, { isAdmin: true, email: "boss@oddwire.test" });
    const editor = await makeUser(t.db, { email: "editor@oddwire.test" });
    await setAdminRight(t.repos, { actorUserId: admin.id, userId: editor.id, isAdmin: true });
    expect((await t.repos.users.findById(editor.id))?.isAdmin).toBe(true);
    const [entry] = await t.repos.audit.forEntity("user", editor.id);
    expect(entry).toMatchObject({ action: "user.grant-admin", actorEmail: "boss@oddwire.test" });
  });

  test("an admin revokes another admin's right", async () => {
    const admin = await makeUser(t.db, { isAdmin: true });
    const other = await makeUser(t.db, { isAdmin: true });
    await setAdminRight(t.repos, { actorUserId: admin.id, userId: other.id, isAdmin: false });
    expect((await t.repos.users.findById(other.id))?.isAdmin).toBe(false);
    expect((await t.repos.audit.forEntity("user", other.id))[0]?.action).toBe("user.revoke-admin");
  });

  test("the last admin cannot lose the right, not even by their own hand", async () => {
    const admin = await makeUser(t.db, { isAdmin: true });
    await expect(setAdminRight(t.repos, { actorUserId: admin.id, userId: admin.id, isAdmin: false })).rejects.toMatchObject({
      code: "LAST_ADMIN",
    });
    expect((await t.repos.users.findById(admin.id))?.isAdmin).toBe(true);
  });

  test("lists users, admins first", async () => {
    await makeUser(t.db, { email: "a@oddwire.test" });
    await makeUser(t.db, { email: "z@oddwire.test", isAdmin: true });
    expect((await listUsers(t.repos)).map((u) => [u.email, u.isAdmin])).toEqual([
      ["z@oddwire.test", true],
      ["a@oddwire.test", false],
    ]);
  });
});
