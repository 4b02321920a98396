import { z } from "zod";
import { isHttpUrl } from "~/lib/http-url";
import { fetchPageTitle } from "~/domain/ingestion/page-title";
import { requireAdmin } from "~/app/lib/admin.server";
import { failureResponse, json, methodNotAllowed, parseInput } from "~/app/lib/json-route.server";
import type { Route } from "./+types/api.page-title";

const Query = z.object({
  url: z
    .string()
    .trim()
    .max(2048, "The URL is too long.")
    .refine((value) => isHttpUrl(value), "Please enter a valid URL"),
});

/** GET /admin/api/page-title?url= : a page's title for the watchlist, fetched through the guarded client. */
export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  const { url } = parseInput(Query, { url: new URL(args.request.url).searchParams.get("url") ?? "" });
  try {
    return json(await fetchPageTitle({ http: args.context.http, logger: args.context.logger }, url));
  } catch (error) {
    return failureResponse(error, args.context.logger, "Failed to read the page title");
  }
}

export async function action(args: Route.ActionArgs) {
  await requireAdmin(args);
  return methodNotAllowed("GET");
}
