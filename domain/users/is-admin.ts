import type { UsersRepo } from "~/db/repos/users.repo";

/**
 * The spec's is_admin: whether a user has the admin flag. Any failure is logged and means
 * "not an admin".
 */
export async function isAdmin(
  deps: { users: Pick<UsersRepo, "findById">; logger: { error: (obj: object, msg: string) => void } },
  userId: string,
): Promise<boolean> {
  try {
    return (await deps.users.findById(userId))?.isAdmin === true;
  } catch (error) {
    deps.logger.error({ err: error, userId }, "admin check failed; treating the user as not an admin");
    return false;
  }
}
