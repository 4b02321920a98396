import type { Repos } from "~/db/repos";
import { ANALYSIS_SIZE, FAILED_LIST_LIMIT, THROUGHPUT_RUNS, type Throughput } from "./panel-rules";

/** The dashboard's image analysis: of the newest 20 stories, how many have an image; and how many stories need work. */
export async function analyzeImages(deps: { repos: Pick<Repos, "images"> }): Promise<{ total: number; withImages: number; needingWork: number }> {
  const [latest, needingWork] = await Promise.all([deps.repos.images.latestImages(ANALYSIS_SIZE), deps.repos.images.countNeedingWork()]);
  return { total: latest.length, withImages: latest.filter((s) => s.imageUrl !== null && s.imageUrl.trim() !== "").length, needingWork };
}

/** A story whose last enhancement failed for a lasting reason, as the panel lists it (dates as ISO text). */
export type FailedStoryView = { id: number; title: string; reason: string; checkedAt: string | null };

export type ImagePanelState = {
  /** Stories a bulk run takes: never enhanced, or failed for a reason that may pass. */
  needingWork: number;
  /** Stories that failed for a lasting reason: how many, and the most recently checked of them. */
  failed: { count: number; stories: FailedStoryView[] };
  /** The speed of recent bulk runs, null before the first. */
  throughput: Throughput | null;
};

/** What the image panel shows: the work left, the stories failed for good apart from it, and the measured speed. */
export async function imagePanelState(deps: { repos: Pick<Repos, "images"> }): Promise<ImagePanelState> {
  const [needingWork, failed, throughput] = await Promise.all([
    deps.repos.images.countNeedingWork(),
    deps.repos.images.lastingFailures(FAILED_LIST_LIMIT),
    deps.repos.images.recentThroughput(THROUGHPUT_RUNS),
  ]);
  return {
    needingWork,
    failed: {
      count: failed.count,
      stories: failed.stories.map((s) => ({ id: s.id, title: s.title, reason: s.reason ?? "Unknown reason", checkedAt: s.checkedAt?.toISOString() ?? null })),
    },
    throughput,
  };
}
