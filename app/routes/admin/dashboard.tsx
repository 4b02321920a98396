import { formatCount } from "~/app/lib/format";
import { z } from "zod";
import { getDashboardStats, RECENT_DAYS } from "~/domain/dashboard/dashboard";
import { startImageRun } from "~/domain/images/enhance";
import { analyzeImages, imagePanelState } from "~/domain/images/image-stats";
import { IMAGE_TEXT } from "~/domain/images/panel-rules";
import { requireAdmin } from "~/app/lib/admin.server";
import { adminAction, intent, type Failure } from "~/app/lib/admin-action.server";
import { ImagePanel, type ImageAnswer, type ImageIntent } from "~/app/components/admin/dashboard/image-panel";
import { actionFailure, actionFailureTitle, analysisSummary, IMAGE_PANEL_TEXT, type RunKind } from "~/app/components/admin/dashboard/image-messages";
import { RssIngestionPanel } from "~/app/components/admin/sources/rss-ingestion-panel";
import { PageHeader } from "~/app/components/admin/page-header";
import { adminMeta } from "~/app/lib/meta";
import type { Route } from "./+types/dashboard";

export function meta(): Route.MetaDescriptors {
  return adminMeta("Dashboard");
}

export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  const { repos, jobs } = args.context;
  // The running enhancement comes with the page, so its progress bar survives a reload.
  const [stats, images, activeJob] = await Promise.all([getDashboardStats(repos), imagePanelState({ repos }), jobs.latestUnfinished("enhance-images")]);
  return { stats, images: { ...images, activeJob } };
}

const BATCH_MESSAGE = "The batch size must be a whole number of at least 1.";
const BulkForm = z.object({
  batchSize: z.coerce.number({ message: BATCH_MESSAGE }).int(BATCH_MESSAGE),
  mode: z.enum(["all", "quick"], { message: "That batch is not understood." }),
});
const TestForm = z.object({ storyId: z.string().default(""), customImageUrl: z.string().optional() });
const RetryForm = z.object({ storyId: z.string().trim().min(1, "No story to retry.").max(20, "That story is not understood.") });
const CancelForm = z.object({ jobId: z.string().trim().min(1, "No run to cancel.").max(100, "No run to cancel.") });

const ANALYZE = z.object({});

/** A refused or failed image action: the spec's title per button, and its words (section 8). */
function failure(intentName: ImageIntent): Failure {
  const { fallback, description } = actionFailure(intentName);
  return {
    fallback,
    title: (answer, form) => actionFailureTitle(intentName, typeof form.mode === "string" ? form.mode : undefined, answer.fields),
    ...(description ? { description: () => description } : {}),
  };
}

export async function action(args: Route.ActionArgs) {
  const { repos, jobs } = args.context;
  // The input is checked by the domain (a blank or unknown story ID is refused there); one run at a
  // time: a second request follows the run already going instead of starting another.
  const start = async (run: RunKind, plan: Parameters<typeof startImageRun>[1]["plan"], actorUserId: string): Promise<ImageAnswer> => {
    const started = await startImageRun({ repos, jobs }, { plan, actorUserId });
    if (started.outcome === "nothing-to-do") return { ok: true, toast: IMAGE_PANEL_TEXT.nothingToDo };
    if (started.outcome === "already-running") return { ok: true, jobId: started.jobId, run: "other", toast: IMAGE_PANEL_TEXT.alreadyRunning };
    return { ok: true, jobId: started.jobId, run };
  };
  return adminAction(
    args,
    {
      "analyze-images": intent({
        schema: ANALYZE,
        failure: failure("analyze-images"),
        run: async () => ({ ok: true, toast: { title: IMAGE_TEXT.analysisComplete, description: analysisSummary(await analyzeImages({ repos })) } }) satisfies ImageAnswer,
      }),
      "enhance-bulk": intent({
        schema: BulkForm,
        failure: failure("enhance-bulk"),
        run: async ({ batchSize, mode }, { me }) => start(mode, { batchSize }, me.id),
      }),
      "enhance-test": intent({
        schema: TestForm,
        failure: failure("enhance-test"),
        run: async ({ storyId, customImageUrl }, { me }) => start("single", { singleStoryId: storyId, customImageUrl }, me.id),
      }),
      "retry-images": intent({
        schema: RetryForm,
        failure: failure("retry-images"),
        run: async ({ storyId }, { me }) => start("retry", { retry: storyId }, me.id),
      }),
      "cancel-images": intent({
        schema: CancelForm,
        failure: failure("cancel-images"),
        run: async ({ jobId }) => ((await jobs.cancel(jobId)) ? { ok: true } : { ok: true, toast: IMAGE_PANEL_TEXT.alreadyFinished }) satisfies ImageAnswer,
      }),
    },
    { title: "Error", fallback: IMAGE_TEXT.defaultFailure },
  );
}

function Card({ title, value, caption }: { title: string; value: number; caption: React.ReactNode }) {
  return (
    <section className="rounded-2xl border-2 border-ink bg-white p-5 shadow-[4px_4px_0_0_var(--color-ink)]">
      <h2 className="text-sm font-bold tracking-wide text-ink/70 uppercase">{title}</h2>
      <p className="mt-2 font-display text-4xl font-extrabold">{formatCount(value)}</p>
      <p className="mt-1 text-sm text-ink/70">{caption}</p>
    </section>
  );
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { stats, images } = loaderData;
  return (
    <>
      <PageHeader title="Dashboard" />
      <div className="mt-6 grid gap-5 sm:grid-cols-2 xl:grid-cols-4">
        <Card
          title="Total Stories"
          value={stats.total}
          caption={
            <>
              {stats.published} published, {stats.pending} pending · {stats.addedLastWeek} in the last {RECENT_DAYS} days
            </>
          }
        />
        <Card title="Published Stories" value={stats.published} caption="Live on the website" />
        <Card title="Pending Review" value={stats.pending} caption="Awaiting approval" />
        <Card title="Active Sources" value={stats.activeSources} caption="RSS feeds monitored" />
      </div>
      <div className="mt-8">
        <RssIngestionPanel />
      </div>
      <div className="mt-8">
        <ImagePanel state={images} activeJob={images.activeJob} />
      </div>
    </>
  );
}
