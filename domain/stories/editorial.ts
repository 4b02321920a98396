import { z } from "zod";
import type { EditorialRepo, StoryFields } from "~/db/repos/editorial.repo";
import { DomainError } from "~/domain/errors";
import { normalizeUrl, rejectionContentHash } from "~/lib/normalize-url";
import { ALREADY_REJECTED_MESSAGE, REQUIRED_FIELDS_MESSAGE } from "./messages";
import { storySlug } from "~/lib/slug";
import { isHttpUrl } from "~/lib/http-url";

// Story review in the back office (spec sections 2, 4 and 5): state transitions, the reject flow,
// hand-made stories and edits. Every change is recorded with who made it.

export { ALREADY_REJECTED_MESSAGE, REQUIRED_FIELDS_MESSAGE } from "./messages";

export type EditorialDeps = { editorial: EditorialRepo; clock?: () => Date };
type Actor = { actorUserId: string };

const optionalUrl = z
  .string()
  .trim()
  .transform((v) => (v === "" ? null : v))
  .nullable()
  .refine((v) => v === null || /^https?:\/\//i.test(v), "must be an http(s) URL")
  .refine((v) => v === null || isHttpUrl(v), "is not a valid URL");

const optionalText = z
  .string()
  .transform((v) => (v.trim() === "" ? null : v.trim()))
  .nullable();

/** The Add/Edit dialog's fields, as submitted. */
export const storyFormSchema = z.object({
  title: z.string().trim().min(1, REQUIRED_FIELDS_MESSAGE),
  categoryId: z.coerce.number({ message: REQUIRED_FIELDS_MESSAGE }).int().positive(REQUIRED_FIELDS_MESSAGE),
  summary: optionalText.default(null),
  content: optionalText.default(null),
  imageUrl: optionalUrl.default(null),
  sourceUrl: optionalUrl.default(null),
  isFeatured: z.boolean().default(false),
  slug: z.string().trim().optional(),
});
export type StoryForm = z.input<typeof storyFormSchema>;

function parseForm(input: StoryForm) {
  const parsed = storyFormSchema.safeParse(input);
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    const message =
      first.message === REQUIRED_FIELDS_MESSAGE ? REQUIRED_FIELDS_MESSAGE : `${String(first.path[0])} ${first.message}`;
    // Each field's first problem, for the dialog to show beside the field.
    const fields: Record<string, string> = {};
    for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
    throw new DomainError("INVALID_STORY", message, { fields });
  }
  return parsed.data;
}

async function mustFind(deps: EditorialDeps, storyId: number) {
  const story = await deps.editorial.findById(storyId);
  if (!story) throw new DomainError("STORY_NOT_FOUND", "That story no longer exists");
  return story;
}

/** pending -> published ('Publish'); the publish date is set if the story has none. */
export async function publishStory(deps: EditorialDeps, input: Actor & { storyId: number }) {
  const story = await mustFind(deps, input.storyId);
  if (story.status !== "pending") throw new DomainError("WRONG_STATUS", "Only a pending story can be published");
  return deps.editorial.setStatus(story.id, "published", { actorUserId: input.actorUserId, action: "story.publish" });
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
  input: Actor & { storyId: number },
): Promise<{ alreadyRejected: boolean; message: string | null }> {
  const story = await mustFind(deps, input.storyId);
  if (story.status !== "pending") throw new DomainError("WRONG_STATUS", "Only a pending story can be rejected");
  const now = (deps.clock ?? (() => new Date()))();
  const url = story.originalUrl ?? story.sourceUrl ?? "";
  const result = await deps.editorial.reject(
    story.id,
    {
      sourceId: story.sourceId,
      title: story.title,
      originalUrl: url || null,
      normalizedUrl: story.normalizedUrl,
      urlHash: story.urlHash,
      contentHash: rejectionContentHash({ title: story.title, url, sourceId: story.sourceId }),
      rejectionReason: "manual_rejection",
      rejectionDetails: {
        rejection_method: "admin_manual",
        original_story_id: story.id,
        rejected_by_admin: true,
        rejected_at: now.toISOString(),
      },
      rejectedAt: now,
    },
    { actorUserId: input.actorUserId, action: "story.reject" },
  );
  if (!result) throw new DomainError("STORY_NOT_FOUND", "That story no longer exists");
  return { alreadyRejected: result.alreadyRejected, message: result.alreadyRejected ? ALREADY_REJECTED_MESSAGE : null };
}

/** Moves a story to another category. */
export async function changeStoryCategory(deps: EditorialDeps, input: Actor & { storyId: number; categoryId: number | null }) {
  const story = await mustFind(deps, input.storyId);
  return deps.editorial.update(
    story.id,
    { categoryId: input.categoryId },
    { actorUserId: input.actorUserId, action: "story.category", details: { from: story.categoryId, to: input.categoryId } },
  );
}

/** Saves the Edit dialog; the slug never changes on edit (spec section 5). */
export async function editStory(deps: EditorialDeps, input: Actor & { storyId: number; form: StoryForm }) {
  const story = await mustFind(deps, input.storyId);
  const { slug: _ignored, ...fields } = parseForm(input.form);
  const changed = (Object.keys(fields) as (keyof StoryFields)[]).filter((k) => fields[k] !== story[k]);
  return deps.editorial.update(story.id, fields, { actorUserId: input.actorUserId, action: "story.edit", details: { changed } });
}

/** Deletes a story for good. */
export async function deleteStory(deps: EditorialDeps, input: Actor & { storyId: number }) {
  const story = await mustFind(deps, input.storyId);
  await deps.editorial.delete(story.id, { actorUserId: input.actorUserId, action: "story.delete", details: { title: story.title } });
}

/**
 * A story made by hand: published at once with the publish date now (spec section 4). Its URL is
 * normalised for deduplication; a URL already in stories is refused. The slug comes from the title
 * unless given, and gets a number when it is taken.
 */
export async function createStory(deps: EditorialDeps & { siteUrl: string }, input: Actor & { form: StoryForm }) {
  const form = parseForm(input.form);
  const baseSlug = storySlug(form.slug || form.title) || "story";
  let slug = baseSlug;
  for (let n = 2; await deps.editorial.slugExists(slug); n++) slug = `${baseSlug}-${n}`;

  const url = normalizeUrl(form.sourceUrl ?? `${deps.siteUrl}/story/${slug}`);
  if (!url.ok) throw new DomainError("INVALID_STORY", `sourceUrl ${url.error.message}`);
  if (await deps.editorial.urlHashExists(url.hash)) {
    throw new DomainError("DUPLICATE_URL", "A story with this source URL already exists");
  }
  const now = (deps.clock ?? (() => new Date()))();
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
