import { z } from "zod";
import { validateFeed } from "~/domain/ingestion/validate-feed";
import { requireAdmin } from "~/app/lib/admin.server";
import { failureResponse, json, methodNotAllowed, readJsonBody } from "~/app/lib/json-route.server";
import type { Route } from "./+types/api.validate-feed";

const Body = z.object({ rssUrl: z.string().trim().min(1, "Please enter an RSS feed URL to validate.").max(2048, "The URL is too long.") });

/** POST /admin/api/validate-feed {rssUrl}: the spec's RSS validation result, fetched through the guarded client. */
export async function action(args: Route.ActionArgs) {
  await requireAdmin(args);
  const { rssUrl } = await readJsonBody(args.request, Body);
  try {
    return json(await validateFeed({ http: args.context.http, parseFeed: args.context.parseFeed }, rssUrl));
  } catch (error) {
    return failureResponse(error, args.context.logger, "Failed to validate RSS feed");
  }
}

export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  return methodNotAllowed("POST");
}
