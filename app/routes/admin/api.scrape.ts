import { z } from "zod";
import { isHttpUrl } from "~/lib/http-url";
import { MAX_URLS, scrapeUrls } from "~/domain/ingestion/scrape-urls";
import { requireAdmin } from "~/app/lib/admin.server";
import { failureResponse, json, methodNotAllowed, readJsonBody } from "~/app/lib/json-route.server";
import type { Route } from "./+types/api.scrape";

const HttpUrl = z
  .string()
  .trim()
  .max(2048, "A URL is too long.")
  .refine((value) => isHttpUrl(value), "Only http:// and https:// URLs can be scraped.");

const Body = z.object({
  urls: z.array(HttpUrl).min(1, "Paste one or more valid URLs first.").max(MAX_URLS, `At most ${MAX_URLS} URLs per request.`),
  source_id: z.number().int().positive().nullish(),
});

/** POST /admin/api/scrape {urls, source_id?}: fetches each URL and stores new articles as pending stories. */
export async function action(args: Route.ActionArgs) {
  await requireAdmin(args);
  const body = await readJsonBody(args.request, Body);
  const { repos, http, logger } = args.context;
  try {
    return json(await scrapeUrls({ repos, http, logger }, { urls: body.urls, sourceId: body.source_id ?? null }));
  } catch (error) {
    return failureResponse(error, logger, "Failed to scrape the URLs");
  }
}

export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  return methodNotAllowed("POST");
}
