import type { Repos } from "~/db/repos";

export const RECENT_DAYS = 7;

export type DashboardStats = {
  total: number;
  published: number;
  pending: number;
  activeSources: number;
  addedLastWeek: number;
};

/** The dashboard's counts: stories by status, active RSS sources, stories added in the last 7 days. */
export async function getDashboardStats(
  deps: { stories: Pick<Repos["stories"], "countByStatus" | "countCreatedSince">; sources: Pick<Repos["sources"], "countActiveRss"> },
  now: Date = new Date(),
): Promise<DashboardStats> {
  const since = new Date(now.getTime() - RECENT_DAYS * 86_400_000);
  const [byStatus, activeSources, addedLastWeek] = await Promise.all([
    deps.stories.countByStatus(),
    deps.sources.countActiveRss(),
    deps.stories.countCreatedSince(since),
  ]);
  return {
    total: byStatus.published + byStatus.pending + byStatus.rejected,
    published: byStatus.published,
    pending: byStatus.pending,
    activeSources,
    addedLastWeek,
  };
}
