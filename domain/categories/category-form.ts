import { z } from "zod";
import { slugify } from "~/lib/slug";

// The Categories form's rule, one schema for the server and the browser: the browser
// says why Add and Save are disabled in the very words the server refuses with.

/** Why a category cannot be added or saved as it is. */
export const CATEGORY_FIELDS_MESSAGE = "A category needs a name and a URL slug";

/** A category's name and slug as the form sends them: a name that is not blank and a slug that is not empty once cleaned. */
export const categoryFormSchema = z.object({
  name: z.string({ message: CATEGORY_FIELDS_MESSAGE }).trim().min(1, CATEGORY_FIELDS_MESSAGE),
  slug: z.string({ message: CATEGORY_FIELDS_MESSAGE }).transform(slugify).pipe(z.string().min(1, CATEGORY_FIELDS_MESSAGE)),
});

/** Why the form cannot be sent yet (shown beside its disabled button), or null when it can. */
export function categoryFormProblem(input: { name: string; slug: string }): string | null {
  const parsed = categoryFormSchema.safeParse(input);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? CATEGORY_FIELDS_MESSAGE);
}
