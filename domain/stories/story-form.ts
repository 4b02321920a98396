import { z } from "zod";
import { isHttpUrl } from "~/lib/http-url";
import { sitePicturePath } from "~/lib/story-image";
import { REQUIRED_FIELDS_MESSAGE } from "./messages";

// The story form's rules, one schema for the server and the browser: the Add/Edit
// dialog checks the required fields with it before sending, and the domain checks all of them.

const optionalUrl = z
  .string()
  .trim()
  .transform((v) => (v === "" ? null : v))
  .nullable()
  .refine((v) => v === null || /^https?:\/\//i.test(v), "must be an http(s) URL")
  .refine((v) => v === null || isHttpUrl(v), "is not a valid URL");

/** A picture the site can serve: one on another site (http(s)), or one of the site's own files by its path. */
const optionalPicture = z
  .string()
  .trim()
  .transform((v) => (v === "" ? null : v))
  .nullable()
  .refine((v) => v === null || isHttpUrl(v) || sitePicturePath(v) !== null, "must be an http(s) URL or a picture on this site, such as /demo/cat.svg");

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
  imageUrl: optionalPicture.default(null),
  sourceUrl: optionalUrl.default(null),
  isFeatured: z.boolean().default(false),
  slug: z.string().trim().optional(),
});
export type StoryForm = z.input<typeof storyFormSchema>;

/** The dialog's fields as submitted, before the rules: text as typed, the Featured switch as a boolean. */
export const storyFormFields = z.object({
  title: z.string().default(""),
  categoryId: z.string().default(""),
  summary: z.string().default(""),
  content: z.string().default(""),
  imageUrl: z.string().default(""),
  sourceUrl: z.string().default(""),
  isFeatured: z.preprocess((value) => value === "on", z.boolean()),
  slug: z.string().default(""),
});

/** Which of the spec's required fields (a non-blank title, a category) a form lacks, by the schema's own rule; null when it has both. */
export function requiredStoryFieldsMissing(form: { title: string; categoryId: string }): { title: boolean; categoryId: boolean } | null {
  const parsed = storyFormSchema.pick({ title: true, categoryId: true }).safeParse(form);
  if (parsed.success) return null;
  const missing = new Set(parsed.error.issues.map((issue) => issue.path[0]));
  return { title: missing.has("title"), categoryId: missing.has("categoryId") };
}
