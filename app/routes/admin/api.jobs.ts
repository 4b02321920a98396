import { z } from "zod";
import { DomainError } from "~/domain/errors";
import { requireAdmin } from "~/app/lib/admin.server";
import { failureResponse, json, methodNotAllowed, parseInput } from "~/app/lib/json-route.server";
import type { Route } from "./+types/api.jobs";

const JobId = z.string().trim().min(1).max(100, "Not a job id.");

/** GET /admin/api/jobs/:id : a background job's status, progress and result (the JobView). */
export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  const jobId = parseInput(JobId, args.params.id);
  try {
    const job = await args.context.jobs.get(jobId);
    if (!job) throw new DomainError("JOB_NOT_FOUND", "No such job.");
    return json(job);
  } catch (error) {
    return failureResponse(error, args.context.logger, "Failed to read the job");
  }
}

export async function action(args: Route.ActionArgs) {
  await requireAdmin(args);
  return methodNotAllowed("GET");
}
