import { hashPassword } from "better-auth/crypto";
import { z } from "zod";
import type { UserRow, UsersRepo } from "~/db/repos/users.repo";
import { DomainError } from "../errors";

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

const credentials = z.object({
  email: z.email("is not an e-mail address").transform((e) => e.toLowerCase()),
  password: z
    .string()
    .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
    .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`),
});

export type PublicUser = { id: string; email: string; name: string; isAdmin: boolean; emailVerified: boolean };

const toPublicUser = (u: UserRow): PublicUser => ({
  id: u.id,
  email: u.email,
  name: u.name,
  isAdmin: u.isAdmin,
  emailVerified: u.emailVerified,
});

/** Creates a user who can sign in with e-mail and password; refuses a taken e-mail. */
export async function createUser(
  deps: { users: UsersRepo },
  input: { email: string; password: string; admin?: boolean; name?: string },
): Promise<PublicUser> {
  const parsed = credentials.safeParse(input);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${String(i.path[0])} ${i.message}`);
    throw new DomainError("INVALID_INPUT", `Cannot create the user: ${problems.join("; ")}`);
  }
  const { email, password } = parsed.data;
  if (await deps.users.findByEmail(email)) {
    throw new DomainError("USER_EXISTS", `A user with the e-mail ${email} already exists`);
  }
  const user = await deps.users.createWithPassword({
    email,
    name: input.name ?? email.split("@")[0] ?? email,
    passwordHash: await hashPassword(password),
    isAdmin: input.admin ?? false,
    // Created by an operator, who vouches for the address.
    emailVerified: true,
  });
  return toPublicUser(user);
}

/** Gives an existing user the admin flag. */
export async function grantAdmin(deps: { users: UsersRepo }, email: string): Promise<PublicUser> {
  const user = await deps.users.findByEmail(email.trim());
  if (!user) throw new DomainError("USER_NOT_FOUND", `No user has the e-mail ${email.trim()}`);
  await deps.users.setAdmin(user.id, true);
  return toPublicUser({ ...user, isAdmin: true });
}

/** Makes sure a user exists with this password and admin flag (the demo admin). */
export async function ensureUser(
  deps: { users: UsersRepo },
  input: { email: string; password: string; admin: boolean; name?: string },
): Promise<{ user: PublicUser; created: boolean }> {
  const existing = await deps.users.findByEmail(input.email);
  if (!existing) return { user: await createUser(deps, input), created: true };
  await deps.users.setPassword(existing.id, await hashPassword(input.password));
  if (input.admin && !existing.isAdmin) await deps.users.setAdmin(existing.id, true);
  return { user: toPublicUser({ ...existing, isAdmin: existing.isAdmin || input.admin }), created: false };
}
