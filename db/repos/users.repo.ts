import { randomUUID } from "node:crypto";
import { asc, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../client";
import { accounts, users } from "../schema";

export type UserRow = typeof users.$inferSelect;

export function usersRepo(db: Db) {
  return {
    async findById(id: string): Promise<UserRow | null> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row ?? null;
    },

    async findByEmail(email: string): Promise<UserRow | null> {
      const [row] = await db
        .select()
        .from(users)
        .where(sql`lower(${users.email}) = lower(${email})`)
        .limit(1);
      return row ?? null;
    },

    /** Creates a user with an e-mail and password credential (better-auth's 'credential' account). */
    async createWithPassword(input: {
      email: string;
      name: string;
      passwordHash: string;
      isAdmin: boolean;
      emailVerified: boolean;
    }): Promise<UserRow> {
      return db.transaction(async (tx) => {
        const id = randomUUID();
        const [user] = await tx
          .insert(users)
          .values({ id, email: input.email, name: input.name, isAdmin: input.isAdmin, emailVerified: input.emailVerified })
          .returning();
        await tx.insert(accounts).values({
          id: randomUUID(),
          accountId: id,
          providerId: "credential",
          userId: id,
          password: input.passwordHash,
        });
        if (!user) throw new Error("insert into users returned no row");
        return user;
      });
    },

    /** Every user, admins first, then by e-mail. */
    listAll(): Promise<UserRow[]> {
      return db.select().from(users).orderBy(desc(users.isAdmin), asc(users.email));
    },

    async countAdmins(): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(users).where(eq(users.isAdmin, true));
      return row?.n ?? 0;
    },

    async setPassword(userId: string, passwordHash: string): Promise<void> {
      await db
        .update(accounts)
        .set({ password: passwordHash, updatedAt: new Date() })
        .where(sql`${accounts.userId} = ${userId} AND ${accounts.providerId} = 'credential'`);
    },

    async setAdmin(userId: string, isAdmin: boolean): Promise<void> {
      await db.update(users).set({ isAdmin, updatedAt: new Date() }).where(eq(users.id, userId));
    },
  };
}
export type UsersRepo = ReturnType<typeof usersRepo>;
