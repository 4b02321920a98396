import { z } from "zod";
import { DomainError } from "~/domain/errors";
import { requireAdmin } from "~/app/lib/admin.server";
import { failureResponse, json, parseInput } from "~/app/lib/json-route.server";
import { ingestionFailures } from "~/domain/sources/sources";
import type { Route } from "./+types/api.ingestion";

const JobId = z.string().trim().min(1, "Which run? Add ?job=ID.").max(100, "Not a job id.");

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
