// Why a Categories control is disabled, in words shown beside it. Why Add or Save is disabled is the
// form's own rule (domain/categories/category-form.ts), shared with the server.

/**
 * The line under a category's Delete button. A category with stories is deleted only once the editor
 * has said where they go: until then it says why Delete is disabled, after, what Delete will do.
 */
export function deleteNote(storyCount: number, moveToName: string | null): string | null {
  if (storyCount === 0) return null;
  const stories = storyCount === 1 ? "1 story" : `${storyCount} stories`;
  return moveToName ? `Its ${stories} will move to ${moveToName}.` : `Choose where its ${stories} ${storyCount === 1 ? "goes" : "go"} before deleting it.`;
}
