import { z } from "zod";
import { requireAdmin } from "~/app/lib/admin.server";
import { failureResponse, json, methodNotAllowed, readJsonBody } from "~/app/lib/json-route.server";
import type { Route } from "./+types/api.ingestion";

const Body = z.object({ use_canonical: z.boolean().optional().default(false) });

/** POST /admin/api/ingestion {use_canonical?}: queues one RSS ingestion cycle and answers its job id (202). */
export async function action(args: Route.ActionArgs) {
  const admin = await requireAdmin(args);
  const { use_canonical } = await readJsonBody(args.request, Body);
  try {
    const { jobId } = await args.context.jobs.enqueue("rss-ingestion", { use_canonical }, { requestedBy: admin.id });
    return json({ jobId }, { status: 202 });
  } catch (error) {
    return failureResponse(error, args.context.logger, "Failed to start RSS ingestion");
  }
}

export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  return methodNotAllowed("POST");
}
