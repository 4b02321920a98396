import { z } from "zod";
import { SocialScreen, type SocialAnswer } from "~/app/components/admin/social/social-screen";
import { SOCIAL_TEXT } from "~/app/components/admin/social/texts";
import { adminAction, intent, type Failure } from "~/app/lib/admin-action.server";
import { requireAdmin } from "~/app/lib/admin.server";
import { idField } from "~/app/lib/form-fields";
import { cancelScheduledPost, requestPost, schedulePostWith } from "~/domain/social/post-story";
import { socialOverview, storyForRepost } from "~/domain/social/social-page";
import { adminMeta } from "~/app/lib/meta";
import type { Route } from "./+types/social";

export function meta(): Route.MetaDescriptors {
  return adminMeta("Social Media");
}

export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  const overview = await socialOverview({ repos: args.context.repos });
  return { ...overview, connected: args.context.facebook !== null, siteUrl: args.context.config.siteUrl };
}

const PostForm = z.object({
  storyId: idField("That story is not understood."),
  message: z.string().trim().min(1, "Write the post's message.").max(60_000, "That message is too long for Facebook."),
  // The composer sends the chosen time as UTC ISO text, empty for now.
  at: z
    .string()
    .trim()
    .optional()
    .transform((text, ctx) => {
      if (!text) return null;
      const at = new Date(text);
      if (Number.isNaN(at.getTime())) ctx.addIssue({ code: "custom", message: "That time is not understood." });
      return at;
    }),
  repost: z.literal("1").optional(),
});

const StoryId = idField("That story is not understood.");

export async function action(args: Route.ActionArgs) {
  const repos = args.context.repos;
  const jobs = args.context.jobs;
  // A failed answer names its intent: the screen reads a failed load differently from a failed post.
  const failure = (intentName: string, title: string, fallback: string): Failure => ({ title, fallback, more: () => ({ intent: intentName }) });
  return adminAction(
    args,
    {
      post: intent({
        schema: PostForm,
        failure: failure("post", SOCIAL_TEXT.failedTitle, SOCIAL_TEXT.failedFallback),
        run: async (input, { me, context }) => {
          const row = await requestPost(
            {
              repos,
              siteUrl: context.config.siteUrl,
              connected: context.facebook !== null,
              schedule: schedulePostWith(() => jobs, me.id),
            },
            { storyId: input.storyId, message: input.message, at: input.at, repost: input.repost === "1", actorUserId: me.id },
          );
          return { ok: true, intent: "post", jobId: row.jobId ?? "", postRowId: row.id, scheduledFor: row.scheduledFor?.toISOString() ?? null } satisfies SocialAnswer;
        },
      }),
      cancel: intent({
        schema: z.object({ postRowId: idField("That post is not understood.") }),
        failure: failure("cancel", SOCIAL_TEXT.failedTitle, "Failed to cancel the scheduled post."),
        run: async ({ postRowId }, { me }) => {
          await cancelScheduledPost({ repos, cancelJob: (jobId) => jobs.cancel(jobId) }, { postRowId, actorUserId: me.id });
          return { ok: true, intent: "cancel", toast: { title: "Scheduled post cancelled", description: "It will not be posted." } } satisfies SocialAnswer;
        },
      }),
      "load-story": intent({
        schema: z.object({ storyId: StoryId }),
        failure: failure("load-story", SOCIAL_TEXT.repostLoadFailed, SOCIAL_TEXT.repostLoadFailed),
        run: async ({ storyId }) => ({ ok: true, intent: "load-story", ...(await storyForRepost({ repos }, storyId)) }) satisfies SocialAnswer,
      }),
    },
    { title: SOCIAL_TEXT.failedTitle, fallback: SOCIAL_TEXT.failedFallback },
  );
}

export default function Social({ loaderData }: Route.ComponentProps) {
  return <SocialScreen {...loaderData} />;
}
