import type { Repos } from "~/db/repos";
import { ANALYSIS_SIZE } from "./panel-rules";

/** The dashboard's image analysis: of the newest 20 stories, how many have an image; and how many stories need work. */
export async function analyzeImages(deps: { repos: Pick<Repos, "images"> }): Promise<{ total: number; withImages: number; needingWork: number }> {
  const [latest, needingWork] = await Promise.all([deps.repos.images.latestImages(ANALYSIS_SIZE), deps.repos.images.countNeedingWork()]);
  return { total: latest.length, withImages: latest.filter((s) => s.imageUrl !== null && s.imageUrl.trim() !== "").length, needingWork };
}
