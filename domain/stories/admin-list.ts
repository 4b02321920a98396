import type { AuditRepo } from "~/db/repos/audit.repo";
import type { EditorialRepo } from "~/db/repos/editorial.repo";

export const STATUS_FILTERS = ["all", "published", "pending", "rejected"] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];
export const ADMIN_PAGE_SIZE = 50;

export type AdminStory = {
  id: number;
  title: string;
  summary: string | null;
  content: string | null;
  imageUrl: string | null;
  sourceUrl: string | null;
  categoryId: number | null;
  category: string;
  sourceName: string | null;
  status: "published" | "pending" | "rejected";
  isFeatured: boolean;
  publishDate: string | null;
  createdAt: string;
  /** Who did what to it, newest first. */
  history: { action: string; by: string | null; at: string }[];
};

export type RejectedItem = { id: number; title: string; rejectedAt: string; rejectionReason: string; sourceName: string | null };

/** The back office's story list: one filter, a text search, and server-side pages (no hard cap). */
export async function listAdminStories(
  deps: { editorial: Pick<EditorialRepo, "list" | "listRejected">; audit: Pick<AuditRepo, "forEntities"> },
  input: { status: StatusFilter; search: string; page: number },
) {
  const search = input.search.trim();
  const offset = (input.page - 1) * ADMIN_PAGE_SIZE;
  const pages = (total: number) => ({ total, page: input.page, pageCount: Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE)) });
  if (input.status === "rejected") {
    const { stories, total } = await deps.editorial.listRejected({ search, limit: ADMIN_PAGE_SIZE, offset });
    const rejected: RejectedItem[] = stories.map((r) => ({
      id: r.id,
      title: r.title,
      rejectedAt: r.rejectedAt.toISOString(),
      rejectionReason: r.rejectionReason,
      sourceName: r.sourceName,
    }));
    return { stories: [] as AdminStory[], rejected, ...pages(total) };
  }
  const { stories, total } = await deps.editorial.list({ status: input.status, search, limit: ADMIN_PAGE_SIZE, offset });
  const trail = await deps.audit.forEntities("story", stories.map((s) => String(s.id)));
  const historyOf = (id: number) =>
    trail.filter((e) => e.entityId === String(id)).map((e) => ({ action: e.action, by: e.actorEmail, at: e.createdAt.toISOString() }));
  const items: AdminStory[] = stories.map((s) => ({
    id: s.id,
    title: s.title,
    summary: s.summary,
    content: s.content,
    imageUrl: s.imageUrl,
    sourceUrl: s.originalUrl ?? s.sourceUrl,
    categoryId: s.categoryId,
    category: s.categoryName ?? "Uncategorized",
    sourceName: s.sourceName,
    status: s.status,
    isFeatured: s.isFeatured,
    publishDate: s.publishDate?.toISOString() ?? null,
    createdAt: s.createdAt.toISOString(),
    history: historyOf(s.id),
  }));
  return { stories: items, rejected: [] as RejectedItem[], ...pages(total) };
}
