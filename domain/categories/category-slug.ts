// The category form imports the slug from here; it is lib/slug.ts's, the one every slug comes from.
export { slugify as categorySlug } from "~/lib/slug";
