import { isDomainError } from "~/domain/errors";
import { publishStory, rejectStory, type EditorialDeps } from "./editorial";

// Reviewing several stories at once (the Stories page's bulk buttons and its p / r shortcuts).

/** How a bulk review ended: how many stories it changed, and each story it left alone, with why. */
export type BulkOutcome = { done: number; skipped: { storyId: number; reason: string }[] };

type BulkInput = { actorUserId: string; storyIds: readonly number[] };

async function eachStory(storyIds: readonly number[], act: (storyId: number) => Promise<unknown>): Promise<BulkOutcome> {
  const outcome: BulkOutcome = { done: 0, skipped: [] };
  // One at a time and in the editor's order: each change is its own transaction with its own audit entry.
  for (const storyId of new Set(storyIds)) {
    try {
      await act(storyId);
      outcome.done++;
    } catch (error) {
      // A business rule (gone meanwhile, no longer pending) skips that story; anything else stops the run.
      if (!isDomainError(error)) throw error;
      outcome.skipped.push({ storyId, reason: error.message });
    }
  }
  return outcome;
}

/** Publishes each pending story of the list; the others are skipped with the reason. */
export function bulkPublishStories(deps: EditorialDeps, input: BulkInput): Promise<BulkOutcome> {
  return eachStory(input.storyIds, (storyId) => publishStory(deps, { actorUserId: input.actorUserId, storyId }));
}

/** Rejects each pending story of the list (the reject flow of one story, for each); the others are skipped with the reason. */
export function bulkRejectStories(deps: EditorialDeps, input: BulkInput): Promise<BulkOutcome> {
  return eachStory(input.storyIds, (storyId) => rejectStory(deps, { actorUserId: input.actorUserId, storyId }));
}

/** The toast of a bulk review: 'Published 2 stories', and the skipped ones by id with their reasons. */
export function bulkOutcomeMessage(verb: "Published" | "Rejected", outcome: BulkOutcome): { title: string; description?: string } {
  const title = `${verb} ${outcome.done} ${outcome.done === 1 ? "story" : "stories"}`;
  if (outcome.skipped.length === 0) return { title };
  return { title, description: `Skipped ${outcome.skipped.length}: ${outcome.skipped.map((s) => `#${s.storyId}: ${s.reason}`).join("; ")}` };
}
