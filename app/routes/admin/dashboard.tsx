import { data } from "react-router";
import { z } from "zod";
import type { Repos } from "~/db/repos";
import { getDashboardStats, RECENT_DAYS } from "~/domain/dashboard/dashboard";
import { planEnhancement } from "~/domain/images/enhance";
import { analyzeImages, imagePanelState } from "~/domain/images/image-stats";
import { IMAGE_TEXT } from "~/domain/images/panel-rules";
import { requireAdmin } from "~/app/lib/admin.server";
import { failedAction } from "~/app/lib/action-toast";
import { errorAnswer } from "~/app/lib/error-response.server";
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

/** The job input of a single-story test or a batch, checked by the domain (a blank or unknown story ID is refused there). */
async function planRun(deps: { repos: Pick<Repos, "images"> }, intent: string, form: Record<string, string>): Promise<{ run: RunKind; plan: Awaited<ReturnType<typeof planEnhancement>> }> {
  if (intent === "enhance-test") {
    const { storyId, customImageUrl } = TestForm.parse(form);
    return { run: "single", plan: await planEnhancement(deps, { singleStoryId: storyId, customImageUrl }) };
  }
  if (intent === "retry-images") {
    const { storyId } = RetryForm.parse(form);
    return { run: "retry", plan: await planEnhancement(deps, { retry: storyId }) };
  }
  const { batchSize, mode } = BulkForm.parse(form);
  return { run: mode, plan: await planEnhancement(deps, { batchSize }) };
}

export async function action(args: Route.ActionArgs) {
  const me = await requireAdmin(args);
  const form = Object.fromEntries(await args.request.formData()) as Record<string, string>;
  const intent = form.intent ?? "";
  const { repos, jobs } = args.context;
  try {
    switch (intent as ImageIntent) {
      case "analyze-images": {
        const counts = await analyzeImages({ repos });
        return { ok: true, toast: { title: IMAGE_TEXT.analysisComplete, description: analysisSummary(counts) } } satisfies ImageAnswer;
      }
      case "enhance-bulk":
      case "enhance-test":
      case "retry-images": {
        const { run, plan } = await planRun({ repos }, intent, form);
        if ("storyIds" in plan && plan.storyIds.length === 0) return { ok: true, toast: IMAGE_PANEL_TEXT.nothingToDo } satisfies ImageAnswer;
        // One run at a time: a second request follows the run already going instead of starting another.
        const running = await jobs.latestUnfinished("enhance-images");
        if (running) return { ok: true, jobId: running.id, run: "other", toast: IMAGE_PANEL_TEXT.alreadyRunning } satisfies ImageAnswer;
        const { jobId } = await jobs.enqueue("enhance-images", plan, { requestedBy: me.id });
        return { ok: true, jobId, run } satisfies ImageAnswer;
      }
      case "cancel-images": {
        const { jobId } = CancelForm.parse(form);
        const cancelled = await jobs.cancel(jobId);
        return (cancelled ? { ok: true } : { ok: true, toast: IMAGE_PANEL_TEXT.alreadyFinished }) satisfies ImageAnswer;
      }
      default:
        return data(failedAction({ message: "Unknown action" }, "Error") satisfies ImageAnswer, { status: 400 });
    }
  } catch (error) {
    const failure = actionFailure(intent);
    const answer = errorAnswer(error, args.context.logger, failure.fallback, { intent });
    const title = actionFailureTitle(intent, form.mode, answer.fields);
    return data(failedAction(answer, title, failure.description ?? answer.message) satisfies ImageAnswer, { status: answer.status });
  }
}

function Card({ title, value, caption }: { title: string; value: number; caption: React.ReactNode }) {
  return (
    <section className="rounded-2xl border-2 border-ink bg-white p-5 shadow-[4px_4px_0_0_var(--color-ink)]">
      <h2 className="text-sm font-bold tracking-wide text-ink/70 uppercase">{title}</h2>
      <p className="mt-2 font-display text-4xl font-extrabold">{value.toLocaleString("en-US")}</p>
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
