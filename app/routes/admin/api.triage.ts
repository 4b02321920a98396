import { z } from "zod";
import { DomainError } from "~/domain/errors";
import { explainScore } from "~/domain/triage/triage";
import { requireAdmin } from "~/app/lib/admin.server";
import { failureResponse, json, methodNotAllowed, parseInput } from "~/app/lib/json-route.server";
import type { Route } from "./+types/api.triage";

const StoryId = z.coerce.number({ message: "Which story? Add ?story=ID." }).int().positive("Not a story id.");

/**
 * GET /admin/api/triage?story=ID : why a pending story scored as it did, `{score, trainedAt, reasons:
 * [{feature, weight}]}` (the Pending list's 'Why?', asked for when the editor opens it).
 */
export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  const storyId = parseInput(StoryId, new URL(args.request.url).searchParams.get("story") ?? "");
  try {
    const models = args.context.repos.triage;
    const explained = await explainScore({ models, story: (id) => models.storyForTriage(id) }, storyId);
    if (!explained) throw new DomainError("STORY_NOT_FOUND", "That story is not pending, or there is no ranking yet.");
    return json(explained);
  } catch (error) {
    return failureResponse(error, args.context.logger, "Failed to explain the score");
  }
}

export async function action(args: Route.ActionArgs) {
  await requireAdmin(args);
  return methodNotAllowed("GET");
}
