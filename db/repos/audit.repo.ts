import { and, desc, eq, inArray, type SQL } from "drizzle-orm";
import type { Db } from "../client";
import { auditLog, users } from "../schema";

export type AuditEntry = {
  id: number;
  action: string;
  entityType: string;
  entityId: string;
  details: Record<string, unknown> | null;
  createdAt: Date;
  actorEmail: string | null;
};

/** What a change records about itself in the audit trail. */
export type AuditRecord = { actorUserId: string | null; action: string; details?: Record<string, unknown> };

/** Writes one audit entry, inside the caller's transaction, for the entity the change touched. */
export function insertAudit(tx: Db, entityType: string, entityId: number | string, entry: AuditRecord) {
  return tx.insert(auditLog).values({
    actorUserId: entry.actorUserId,
    action: entry.action,
    entityType,
    entityId: String(entityId),
    details: entry.details ?? null,
  });
}

export function auditRepo(db: Db) {
  const trail = (where: SQL | undefined, limit: number): Promise<AuditEntry[]> =>
    db
      .select({
        id: auditLog.id,
        action: auditLog.action,
        entityType: auditLog.entityType,
        entityId: auditLog.entityId,
        details: auditLog.details,
        createdAt: auditLog.createdAt,
        actorEmail: users.email,
      })
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.actorUserId))
      .where(where)
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(limit);

  return {
    /** Records who did what to which record. */
    async record(entry: { actorUserId: string | null; action: string; entityType: string; entityId: string; details?: Record<string, unknown> }) {
      await db.insert(auditLog).values({ ...entry, details: entry.details ?? null });
    },

    /** The trails of several records of one type, newest first (one query). */
    async forEntities(entityType: string, entityIds: string[], limit = 1_000): Promise<AuditEntry[]> {
      if (entityIds.length === 0) return [];
      return trail(and(eq(auditLog.entityType, entityType), inArray(auditLog.entityId, entityIds)), limit);
    },

    /** The trail of one record, newest first. */
    forEntity(entityType: string, entityId: string, limit = 50): Promise<AuditEntry[]> {
      return trail(and(eq(auditLog.entityType, entityType), eq(auditLog.entityId, entityId)), limit);
    },
  };
}
export type AuditRepo = ReturnType<typeof auditRepo>;
