import { enhanceStoryImages, type EnhancementInput, type ImageDeps } from "~/domain/images/enhance";
import type { JobHandlers } from "./runner";

/**
 * Image enhancement as a job: a bulk batch is pinned to its stories when it starts, so a run resumed
 * after a restart (same input, resumed_from set) finishes those, skipping the ones already looked at
 * since the run first started, however many times it was resumed.
 */
export function imageHandlers(deps: ImageDeps): Pick<JobHandlers, "enhance-images"> {
  return {
    "enhance-images": async (input, { reportProgress, signal, resumedSince }) => {
      let work: EnhancementInput;
      if (input.singleStoryId !== undefined) work = { singleStoryId: input.singleStoryId, customImageUrl: input.customImageUrl ?? null };
      else if (input.storyIds !== undefined) work = { storyIds: input.storyIds, since: resumedSince };
      else work = { batchSize: input.batchSize ?? 0 };
      const result = await enhanceStoryImages(deps, work, {
        signal,
        onProgress: ({ done, total, counts }) => reportProgress({ done, total, counts }),
      });
      return { ...result };
    },
  };
}
