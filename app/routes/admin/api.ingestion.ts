import { z } from "zod";
import { DomainError } from "~/domain/errors";
import { requireAdmin } from "~/app/lib/admin.server";
import { failureResponse, json, parseInput, readJsonBody } from "~/app/lib/json-route.server";
import { ingestionFailures } from "~/domain/sources/sources";
import type { Route } from "./+types/api.ingestion";

const Body = z.object({ use_canonical: z.boolean().optional().default(false) });
const JobId = z.string().trim().min(1, "Which run? Add ?job=ID.").max(100, "Not a job id.");

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

/**
 * GET /admin/api/ingestion?job=ID : what went wrong in a finished ingestion run, `{failedSources:
 * [{id, name, error}]}`: the sources whose fetch failed while it ran.
 */
export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  const jobId = parseInput(JobId, new URL(args.request.url).searchParams.get("job") ?? "");
  try {
    const job = await args.context.jobs.get(jobId);
    if (!job || job.kind !== "rss-ingestion") throw new DomainError("JOB_NOT_FOUND", "No such ingestion run.");
    if (!job.finishedAt) throw new DomainError("JOB_NOT_FINISHED", "The run has not finished yet.");
    const failedSources = await ingestionFailures(args.context.repos, { from: new Date(job.startedAt ?? job.createdAt), to: new Date(job.finishedAt) });
    return json({ failedSources });
  } catch (error) {
    return failureResponse(error, args.context.logger, "Failed to read the ingestion run");
  }
}
