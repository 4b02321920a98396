import { enhanceStoryImages, type EnhancementInput, type ImageDeps } from "~/domain/images/enhance";
import type { JobHandlers } from "./runner";

type JobLookup = { findById(id: string): Promise<{ startedAt: Date | null; createdAt: Date; input: unknown } | null> };

/** A resumed job may itself be resumed: stories checked since the first job of the chain started are done. */
const MAX_RESUMES_FOLLOWED = 50;

async function firstStartOf(jobs: JobLookup, resumedFrom: string): Promise<Date | null> {
  let since: Date | null = null;
  let id: string | undefined = resumedFrom;
  for (let i = 0; id && i < MAX_RESUMES_FOLLOWED; i++) {
    const job = await jobs.findById(id);
    if (!job) break;
    since = job.startedAt ?? job.createdAt;
    const earlier = (job.input as { resumed_from?: unknown } | null)?.resumed_from;
    id = typeof earlier === "string" ? earlier : undefined;
  }
  return since;
}

/**
 * Image enhancement as a job: a bulk batch is pinned to its stories when it starts, so a run resumed
 * after a restart (same input, resumed_from set) finishes those, skipping the ones already looked at
 * since the run first started, however many times it was resumed.
 */
export function imageHandlers(deps: ImageDeps & { repos: ImageDeps["repos"] & { jobs: JobLookup } }): Pick<JobHandlers, "enhance-images"> {
  return {
    "enhance-images": async (input, { reportProgress, signal }) => {
      let work: EnhancementInput;
      if (typeof input.singleStoryId === "number") work = { singleStoryId: input.singleStoryId, customImageUrl: input.customImageUrl ?? null };
      else if (Array.isArray(input.storyIds)) {
        work = { storyIds: input.storyIds, since: input.resumed_from ? await firstStartOf(deps.repos.jobs, input.resumed_from) : null };
      } else work = { batchSize: Number(input.batchSize ?? 0) };
      const result = await enhanceStoryImages(deps, work, {
        signal,
        onProgress: ({ done, total, counts }) => reportProgress({ done, total, counts }),
      });
      return { ...result };
    },
  };
}
