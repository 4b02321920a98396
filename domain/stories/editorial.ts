import { dateOf, systemClock, type Clock } from "~/lib/clock";
import type { EditorialRepo, StoryLinkFields } from "~/db/repos/editorial.repo";
import { DomainError, fieldMessages } from "~/domain/errors";
import { normalizeUrl, rejectionContentHash } from "~/lib/normalize-url";
import { ALREADY_REJECTED_MESSAGE, REQUIRED_FIELDS_MESSAGE } from "./messages";
import { storyFormSchema, type StoryForm } from "./story-form";
import { storySlug } from "~/lib/slug";
import { sitePicturePath } from "~/lib/story-image";
import { storyLink } from "./story-link";

// Story review in the back office: state transitions, the reject flow,
// hand-made stories and edits. Every change is recorded with who made it.

export { ALREADY_REJECTED_MESSAGE, REQUIRED_FIELDS_MESSAGE } from "./messages";

/** The rejection reason of a story rejected as another report of one the desk published. */
export const DUPLICATE_REJECTION = "duplicate";

export type EditorialDeps = {
  editorial: EditorialRepo;
  now?: Clock;
  /** Whether the site serves the picture a path names (/demo/cat.svg); without it, any picture path is taken. */
  sitePictureExists?: (sitePath: string) => Promise<boolean>;
};
/** Who made a change: a signed-in user, or null for a command run on the server (the review command). */
type Actor = { actorUserId: string | null };


function parseForm(input: StoryForm) {
  const parsed = storyFormSchema.safeParse(input);
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    const message =
      first.message === REQUIRED_FIELDS_MESSAGE ? REQUIRED_FIELDS_MESSAGE : `${String(first.path[0])} ${first.message}`;
    // Each field's first problem, for the dialog to show beside the field.
    throw new DomainError("INVALID_STORY", message, { fields: fieldMessages(parsed.error.issues) });
  }
  return parsed.data;
}

/** Refuses a picture path the site does not have, rather than saving a story that shows the logo. */
async function checkSitePicture(deps: EditorialDeps, imageUrl: string | null) {
  const sitePath = sitePicturePath(imageUrl);
  if (sitePath === null || !deps.sitePictureExists || (await deps.sitePictureExists(sitePath))) return;
  const problem = `there is no picture at ${sitePath} on this site`;
  throw new DomainError("INVALID_STORY", `imageUrl: ${problem}`, { fields: { imageUrl: problem } });
}

/** What is said of a category deleted since the form was drawn (or never there): beside the field, and as the message. */
export const GONE_CATEGORY_MESSAGE = "That category no longer exists: choose another";

/** Refuses a category that does not exist, in words, before the database's foreign key would refuse it as a failure. */
export async function checkCategory(deps: EditorialDeps, categoryId: number | null | undefined) {
  if (categoryId === null || categoryId === undefined || (await deps.editorial.categoryExists(categoryId))) return;
  throw new DomainError("INVALID_CATEGORY", GONE_CATEGORY_MESSAGE, { fields: { categoryId: GONE_CATEGORY_MESSAGE } });
}

async function mustFind(deps: EditorialDeps, storyId: number) {
  const story = await deps.editorial.findById(storyId);
  if (!story) throw new DomainError("STORY_NOT_FOUND", "That story no longer exists");
  return story;
}

/**
 * pending -> published ('Publish'); the publish date is set if the story has none. A story goes live
 * only with a category: one given here is set with it, and one without is refused, saying so.
 */
export async function publishStory(
  deps: EditorialDeps,
  input: Actor & { storyId: number; categoryId?: number | null; /** The category to give it only if it has none. */ categoryIfNone?: number },
) {
  const story = await mustFind(deps, input.storyId);
  if (story.status !== "pending") throw new DomainError("WRONG_STATUS", "Only a pending story can be published");
  const categoryId = input.categoryId ?? story.categoryId ?? input.categoryIfNone ?? null;
  if (categoryId === null) {
    throw new DomainError("MISSING_CATEGORY", `"${story.title}" has no category: choose one to publish it`, {
      fields: { categoryId: "Choose a category to publish this story" },
    });
  }
  if (categoryId !== story.categoryId) await checkCategory(deps, categoryId);
  const row = await deps.editorial.setStatus(story.id, "published", {
    actorUserId: input.actorUserId,
    action: "story.publish",
    ...(categoryId !== story.categoryId ? { details: { category: { from: story.categoryId, to: categoryId } } } : {}),
  }, { categoryId });
  if (!row) throw new DomainError("STORY_NOT_FOUND", "That story no longer exists");
  return row;
}

/** published -> pending ('Unpublish'). */
export async function unpublishStory(deps: EditorialDeps, input: Actor & { storyId: number }) {
  const story = await mustFind(deps, input.storyId);
  if (story.status !== "published") throw new DomainError("WRONG_STATUS", "Only a published story can be unpublished");
  return deps.editorial.setStatus(story.id, "pending", { actorUserId: input.actorUserId, action: "story.unpublish" });
}

/**
 * pending -> rejected ('Reject'): the story is copied into rejected_stories with its content hash and
 * the spec's rejection details, and removed from stories, in one transaction. A URL rejected before
 * is only removed; `message` then carries the spec's text for it.
 */
export async function rejectStory(
  deps: EditorialDeps,
  input: Actor & {
    storyId: number;
    /** Rejected as another report of this story (published or being published): recorded as a duplicate, which the triage ranking does not learn from. */
    duplicateOf?: number;
    /** The editor's own words for why (the review command's --reason). */
    reason?: string;
  },
): Promise<{ alreadyRejected: boolean; message: string | null }> {
  const story = await mustFind(deps, input.storyId);
  if (story.status !== "pending") throw new DomainError("WRONG_STATUS", "Only a pending story can be rejected");
  const now = dateOf(deps.now ?? systemClock);
  const url = storyLink(story) ?? "";
  const result = await deps.editorial.reject(
    story.id,
    {
      sourceId: story.sourceId,
      title: story.title,
      summary: story.summary,
      originalUrl: url || null,
      normalizedUrl: story.normalizedUrl,
      urlHash: story.urlHash,
      contentHash: rejectionContentHash({ title: story.title, url, sourceId: story.sourceId }),
      rejectionReason: input.duplicateOf !== undefined ? DUPLICATE_REJECTION : "manual_rejection",
      rejectionDetails: {
        rejection_method: "admin_manual",
        original_story_id: story.id,
        rejected_by_admin: true,
        rejected_at: now.toISOString(),
        ...(input.duplicateOf !== undefined ? { duplicate_of: input.duplicateOf } : {}),
        ...(input.reason?.trim() ? { reason: input.reason.trim().slice(0, 500) } : {}),
      },
      rejectedAt: now,
      ingestedAt: story.createdAt,
    },
    { actorUserId: input.actorUserId, action: "story.reject" },
  );
  if (!result) throw new DomainError("STORY_NOT_FOUND", "That story no longer exists");
  return { alreadyRejected: result.alreadyRejected, message: result.alreadyRejected ? ALREADY_REJECTED_MESSAGE : null };
}

/** Moves a story to another category; a published story keeps one. */
export async function changeStoryCategory(deps: EditorialDeps, input: Actor & { storyId: number; categoryId: number | null }) {
  const story = await mustFind(deps, input.storyId);
  if (input.categoryId === null && story.status === "published") {
    throw new DomainError("MISSING_CATEGORY", "A published story keeps a category: unpublish it before taking its category away");
  }
  await checkCategory(deps, input.categoryId);
  return deps.editorial.update(
    story.id,
    { categoryId: input.categoryId },
    { actorUserId: input.actorUserId, action: "story.category", details: { from: story.categoryId, to: input.categoryId } },
  );
}

/**
 * Saves the Edit dialog: every field it shows. The slug never changes on edit. The
 * Source URL is the story's link (where it was found, else the one given): a new one is the story's
 * new address for readers, deduplication and image enhancement, and is refused when another story
 * has it; a story that has a link keeps one.
 */
export async function editStory(deps: EditorialDeps, input: Actor & { storyId: number; form: StoryForm }) {
  const story = await mustFind(deps, input.storyId);
  const { slug: _ignored, sourceUrl, ...fields } = parseForm(input.form);
  await checkSitePicture(deps, fields.imageUrl);
  if (fields.categoryId !== story.categoryId) await checkCategory(deps, fields.categoryId);
  const link = storyLink(story);
  let linkFields: Partial<StoryLinkFields> = {};
  // A form without the field (the command line, an older page) leaves the link as it is.
  if (input.form.sourceUrl !== undefined && sourceUrl !== link) {
    if (sourceUrl === null) {
      const problem = "A story keeps its source URL: readers follow it and it tells duplicates apart";
      throw new DomainError("INVALID_STORY", `sourceUrl: ${problem}`, { fields: { sourceUrl: problem } });
    }
    const url = normalizeUrl(sourceUrl);
    if (!url.ok) throw new DomainError("INVALID_STORY", `sourceUrl ${url.error.message}`, { fields: { sourceUrl: url.error.message } });
    if (url.hash !== story.urlHash && (await deps.editorial.urlHashExists(url.hash))) {
      const problem = "Another story already has this source URL";
      throw new DomainError("DUPLICATE_URL", problem, { fields: { sourceUrl: problem } });
    }
    linkFields = { originalUrl: sourceUrl, sourceUrl, normalizedUrl: url.normalized, urlHash: url.hash };
  }
  const changed = [
    ...(Object.keys(fields) as (keyof typeof fields)[]).filter((k) => fields[k] !== story[k]),
    ...(linkFields.originalUrl !== undefined ? ["sourceUrl"] : []),
  ];
  return deps.editorial.update(story.id, { ...fields, ...linkFields }, { actorUserId: input.actorUserId, action: "story.edit", details: { changed } });
}

/** Deletes a story for good. */
export async function deleteStory(deps: EditorialDeps, input: Actor & { storyId: number }) {
  const story = await mustFind(deps, input.storyId);
  await deps.editorial.delete(story.id, { actorUserId: input.actorUserId, action: "story.delete", details: { title: story.title } });
}

/**
 * A story made by hand: published at once with the publish date now. Its URL is
 * normalised for deduplication; a URL already in stories is refused. The slug comes from the title
 * unless given, and gets a number when it is taken.
 */
export async function createStory(deps: EditorialDeps & { siteUrl: string }, input: Actor & { form: StoryForm }) {
  const form = parseForm(input.form);
  await checkSitePicture(deps, form.imageUrl);
  await checkCategory(deps, form.categoryId);
  const baseSlug = storySlug(form.slug || form.title);
  let slug = baseSlug;
  for (let n = 2; await deps.editorial.slugExists(slug); n++) slug = `${baseSlug}-${n}`;

  const url = normalizeUrl(form.sourceUrl ?? `${deps.siteUrl}/story/${slug}`);
  if (!url.ok) throw new DomainError("INVALID_STORY", `sourceUrl ${url.error.message}`);
  if (await deps.editorial.urlHashExists(url.hash)) {
    throw new DomainError("DUPLICATE_URL", "A story with this source URL already exists");
  }
  const now = dateOf(deps.now ?? systemClock);
  const { slug: _slug, ...fields } = form;
  return deps.editorial.insert(
    {
      ...fields,
      originalUrl: form.sourceUrl,
      normalizedUrl: url.normalized,
      urlHash: url.hash,
      slug,
      status: "published",
      publishDate: now,
    },
    { actorUserId: input.actorUserId, action: "story.create" },
  );
}
