// Why a Categories control is disabled, in words shown beside it.

/** What the add or edit form still needs before it can be sent (spec section 5: a name and a slug), or null. */
export function missingFieldsReason(name: string, slug: string, action: "add the category" | "save"): string | null {
  const missing = [name.trim() ? null : "a category name", slug.trim() ? null : "a URL slug"].filter(Boolean);
  return missing.length ? `Enter ${missing.join(" and ")} to ${action}.` : null;
}

/**
 * The line under a category's Delete button. A category with stories is deleted only once the editor
 * has said where they go: until then it says why Delete is disabled, after, what Delete will do.
 */
export function deleteNote(storyCount: number, moveToName: string | null): string | null {
  if (storyCount === 0) return null;
  const stories = storyCount === 1 ? "1 story" : `${storyCount} stories`;
  return moveToName ? `Its ${stories} will move to ${moveToName}.` : `Choose where its ${stories} ${storyCount === 1 ? "goes" : "go"} before deleting it.`;
}
