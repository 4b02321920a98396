import { isDomainError } from "~/domain/errors";
import { checkCategory, publishStory, rejectStory, type EditorialDeps } from "./editorial";

// Reviewing several stories at once (the Stories page's bulk buttons and its p / r shortcuts).

/** How a bulk review ended: how many stories it changed, and each story it left alone, with why. */
export type BulkOutcome = { done: number; skipped: { storyId: number; reason: string }[] };

type BulkInput = { actorUserId: string | null; storyIds: readonly number[] };

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

/**
 * Publishes each pending story of the list, into `categoryId` when given; a story without a category
 * goes into the one `categoryOf` names for it (a story that has one keeps it). The others are skipped
 * with the reason. A category in `categoryOf` that does not exist refuses the whole list before any
 * story is published.
 */
export async function bulkPublishStories(
  deps: EditorialDeps,
  input: BulkInput & { categoryId?: number; categoryOf?: ReadonlyMap<number, number> },
): Promise<BulkOutcome> {
  for (const categoryId of new Set(input.categoryOf?.values())) await checkCategory(deps, categoryId);
  return eachStory(input.storyIds, (storyId) =>
    publishStory(deps, { actorUserId: input.actorUserId, storyId, categoryId: input.categoryId, categoryIfNone: input.categoryOf?.get(storyId) }),
  );
}

/** Rejects each pending story of the list (the reject flow of one story, for each); the others are skipped with the reason. */
export function bulkRejectStories(deps: EditorialDeps, input: BulkInput & { reason?: string }): Promise<BulkOutcome> {
  return eachStory(input.storyIds, (storyId) => rejectStory(deps, { actorUserId: input.actorUserId, storyId, reason: input.reason }));
}

/** The toast of a bulk review: 'Published 2 stories', and the skipped ones by id with their reasons. */
export function bulkOutcomeMessage(verb: "Published" | "Rejected", outcome: BulkOutcome): { title: string; description?: string; tone?: "error" } {
  const title = `${verb} ${outcome.done} ${outcome.done === 1 ? "story" : "stories"}`;
  if (outcome.skipped.length === 0) return { title };
  const description = `Skipped ${outcome.skipped.length}: ${outcome.skipped.map((s) => `#${s.storyId}: ${s.reason}`).join("; ")}`;
  // Nothing done at all is a failure to read as one, not a success with a footnote.
  return outcome.done === 0 ? { title, description, tone: "error" } : { title, description };
}

/**
 * One story told by several sources: publishes the chosen report (with the category given, or its own)
 * and rejects the other reports as its duplicates, each in its own transaction. A report gone or no
 * longer pending meanwhile is skipped with the reason; the publish itself must succeed first.
 */
export async function publishOneRejectCopies(
  deps: EditorialDeps,
  input: { actorUserId: string | null; storyId: number; categoryId?: number | null; duplicateIds: readonly number[] },
): Promise<BulkOutcome> {
  await publishStory(deps, { actorUserId: input.actorUserId, storyId: input.storyId, categoryId: input.categoryId });
  const copies = input.duplicateIds.filter((id) => id !== input.storyId);
  return eachStory(copies, (storyId) => rejectStory(deps, { actorUserId: input.actorUserId, storyId, duplicateOf: input.storyId }));
}

/** The toast of publishing one report of a story and rejecting its copies. */
export function sameStoryOutcomeMessage(outcome: BulkOutcome): { title: string; description: string } {
  const rejected = outcome.done === 1 ? "1 other report rejected as a duplicate" : `${outcome.done} other reports rejected as duplicates`;
  const skipped = outcome.skipped.length > 0 ? `; skipped ${outcome.skipped.map((s) => `#${s.storyId}: ${s.reason}`).join("; ")}` : "";
  return { title: "Story Published", description: `The story is live on the website; ${rejected}${skipped}.` };
}
