import { sql } from "drizzle-orm";
import { bigint, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, timestamptz } from "./columns";
import { jobStatus } from "./enums";
import { users } from "./accounts";

// Operations: the record of background work, and the audit trail.

/** Durable record of background work: the queue's job id, progress while it runs, and its outcome. */
export const jobs = pgTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    status: jobStatus("status").notNull().default("queued"),
    progress: integer("progress").notNull().default(0),
    total: integer("total"),
    message: text("message"),
    /** Running counts a job reports beside its progress (enhanced, failed, skipped...). */
    counts: jsonb("counts").$type<Record<string, number>>(),
    /** Set when someone asks a queued or running job to stop; the job ends as cancelled. */
    cancelRequestedAt: timestamptz("cancel_requested_at"),
    input: jsonb("input").$type<Record<string, unknown>>(),
    result: jsonb("result").$type<Record<string, unknown>>(),
    error: text("error"),
    requestedBy: text("requested_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    startedAt: timestamptz("started_at"),
    finishedAt: timestamptz("finished_at"),
    /**
     * While a job runs, its process renews this every few seconds; a running job whose lease has
     * lapsed lost its process (kill -9, a lost machine) and is taken up again by a live worker.
     */
    leaseUntil: timestamptz("lease_until"),
  },
  (t) => [
    index("jobs_kind_created_idx").on(t.kind, t.createdAt.desc().nullsFirst()),
    index("jobs_status_idx").on(t.status),
    // An interrupted job is taken up again once, however many workers notice it at the same moment.
    uniqueIndex("jobs_resumed_from_idx").on(sql`(${t.input}->>'resumed_from')`).where(sql`${t.input} ? 'resumed_from'`),
  ],
);

/** Who did what to which record, and when. No foreign key on the entity: the trail outlives it. */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    actorUserId: text("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action").notNull(),
    entityType: text("entity_type").notNull(),
    entityId: text("entity_id").notNull(),
    details: jsonb("details").$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    index("audit_log_entity_idx").on(t.entityType, t.entityId, t.createdAt.desc().nullsFirst()),
    index("audit_log_actor_idx").on(t.actorUserId, t.createdAt.desc().nullsFirst()),
  ],
);
