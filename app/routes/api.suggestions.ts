import { suggestStories } from "~/domain/public/public-site";
import type { Route } from "./+types/api.suggestions";

/** GET /api/suggestions?q= : up to five published titles for the search dropdown. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const suggestions = await suggestStories(context.repos, new URL(request.url).searchParams.get("q"));
  return Response.json({ suggestions }, { headers: { "Cache-Control": "public, max-age=60, s-maxage=5" } });
}
