import { data } from "react-router";
import { z } from "zod";
import { SocialScreen, type SocialAnswer } from "~/app/components/admin/social/social-screen";
import { SOCIAL_TEXT } from "~/app/components/admin/social/texts";
import { failedAction } from "~/app/lib/action-toast";
import { requireAdmin } from "~/app/lib/admin.server";
import { errorAnswer } from "~/app/lib/error-response.server";
import { idField } from "~/app/lib/form-fields";
import { cancelScheduledPost, requestPost } from "~/domain/social/post-story";
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

export async function action(args: Route.ActionArgs) {
  const me = await requireAdmin(args);
  const form = Object.fromEntries(await args.request.formData()) as Record<string, string>;
  const intent = form.intent ?? "";
  const repos = args.context.repos;
  const jobs = args.context.jobs;
  try {
    switch (intent) {
      case "post": {
        const input = PostForm.parse(form);
        const row = await requestPost(
          {
            repos,
            siteUrl: args.context.config.siteUrl,
            connected: args.context.facebook !== null,
            schedule: (postRowId, at) => jobs.enqueue("facebook-post", { post_id: postRowId }, { requestedBy: me.id, startAfter: at }),
          },
          { storyId: input.storyId, message: input.message, at: input.at, repost: input.repost === "1", actorUserId: me.id },
        );
        return { ok: true, intent: "post", jobId: row.jobId ?? "", postRowId: row.id, scheduledFor: row.scheduledFor?.toISOString() ?? null } satisfies SocialAnswer;
      }
      case "cancel": {
        await cancelScheduledPost({ repos, cancelJob: (jobId) => jobs.cancel(jobId) }, { postRowId: idField("That post is not understood.").parse(form.postRowId), actorUserId: me.id });
        return { ok: true, intent: "cancel", toast: { title: "Scheduled post cancelled", description: "It will not be posted." } } satisfies SocialAnswer;
      }
      case "load-story": {
        const loaded = await storyForRepost({ repos }, idField("That story is not understood.").parse(form.storyId));
        return { ok: true, intent: "load-story", ...loaded } satisfies SocialAnswer;
      }
      default:
        return data(failedAction({ message: "Unknown action" }, SOCIAL_TEXT.failedTitle), { status: 400 });
    }
  } catch (error) {
    const fallback = intent === "load-story" ? SOCIAL_TEXT.repostLoadFailed : intent === "cancel" ? "Failed to cancel the scheduled post." : SOCIAL_TEXT.failedFallback;
    const answer = errorAnswer(error, args.context.logger, fallback, { intent });
    const title = intent === "load-story" ? SOCIAL_TEXT.repostLoadFailed : SOCIAL_TEXT.failedTitle;
    return data({ ...failedAction(answer, title), intent }, { status: answer.status });
  }
}

export default function Social({ loaderData }: Route.ComponentProps) {
  return <SocialScreen {...loaderData} />;
}
