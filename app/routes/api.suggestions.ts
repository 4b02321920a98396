import { suggestStories } from "~/domain/public/public-site";
import type { Route } from "./+types/api.suggestions";

/** GET /api/suggestions?q= : up to five published titles for the search dropdown. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const allowed = await context.rateLimits.suggestions.take(context.clientAddress);
  if (!allowed.ok) {
    return Response.json(
      { suggestions: [], error: "Too many searches from your address. Please wait and try again." },
      { status: 429, headers: { "Retry-After": String(allowed.retryAfterSeconds), "Cache-Control": "no-store" } },
    );
  }
  const suggestions = await suggestStories(context.repos, new URL(request.url).searchParams.get("q"));
  return Response.json({ suggestions }, { headers: { "Cache-Control": "public, max-age=60, s-maxage=5" } });
}
