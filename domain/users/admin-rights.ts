import type { AuditRepo } from "~/db/repos/audit.repo";
import type { UsersRepo } from "~/db/repos/users.repo";
import { DomainError } from "../errors";

export type UserListItem = { id: string; email: string; name: string; isAdmin: boolean; emailVerified: boolean; createdAt: string };

/** Every user with their admin flag, for the Users page. */
export async function listUsers(deps: { users: Pick<UsersRepo, "listAll"> }): Promise<UserListItem[]> {
  return (await deps.users.listAll()).map((u) => ({
    id: u.id,
    email: u.email,
    name: u.name,
    isAdmin: u.isAdmin,
    emailVerified: u.emailVerified,
    createdAt: u.createdAt.toISOString(),
  }));
}

/**
 * Grants or revokes the admin flag, and records it in the audit trail. Refuses to remove the last
 * admin, so the back office can never lock everyone out.
 */
export async function setAdminRight(
  deps: { users: Pick<UsersRepo, "findById" | "setAdmin" | "countAdmins">; audit: Pick<AuditRepo, "record"> },
  input: { actorUserId: string; userId: string; isAdmin: boolean },
): Promise<void> {
  const user = await deps.users.findById(input.userId);
  if (!user) throw new DomainError("USER_NOT_FOUND", "That user no longer exists");
  if (user.isAdmin === input.isAdmin) return;
  if (!input.isAdmin && (await deps.users.countAdmins()) <= 1) {
    throw new DomainError("LAST_ADMIN", "The last admin cannot lose the admin right: grant it to someone else first");
  }
  await deps.users.setAdmin(user.id, input.isAdmin);
  await deps.audit.record({
    actorUserId: input.actorUserId,
    action: input.isAdmin ? "user.grant-admin" : "user.revoke-admin",
    entityType: "user",
    entityId: user.id,
    details: { email: user.email },
  });
}
