import { useEffect, useId, useState } from "react";
import { useFetcher } from "react-router";
import { Spinner } from "~/app/components/admin/sources/spinner";
import { panelClass } from "~/app/components/admin/sources/ui";
import type { ActionToast } from "~/app/lib/action-toast";
import { plural } from "~/app/lib/format";
import type { ImagePanelState } from "~/domain/images/image-stats";
import { bulkBatchSize, IMAGE_TEXT, QUICK_BATCHES, throughputText } from "~/domain/images/panel-rules";
import type { JobView } from "~/jobs/types";
import { ImageBatchDialog } from "./image-batch-dialog";
import { ImageFailedList } from "./image-failed-list";
import { ImageLastRun } from "./image-last-run";
import { actionToastDuration, batchConfirmation, retryConfirmation, type RunKind } from "./image-messages";
import { ImageRunProgress } from "./image-run-progress";
import { ImageTestForm } from "./image-test-form";
import { followRun, showPanelToast, useImageRun } from "./use-image-run";

export type ImageIntent = "analyze-images" | "enhance-bulk" | "enhance-test" | "retry-images" | "cancel-images";

/** What the dashboard's image actions answer: a toast, field problems, or the run to follow. */
export type ImageAnswer = { ok: boolean; toast?: ActionToast; fields?: Record<string, string>; jobId?: string; run?: RunKind };

type Batch = { mode: "all" | "quick"; batchSize: number };
/** What the confirmation asks before: a batch, or a retry of every story that failed for good. */
type Confirming = { kind: "batch"; batch: Batch } | { kind: "retry-all" };

// The batch buttons are dimmed with aria-disabled rather than disabled, so one that started a run keeps the focus.
const button =
  "inline-flex items-center gap-2 rounded-full border-2 border-ink px-4 py-2 text-sm font-bold disabled:cursor-not-allowed disabled:opacity-50 aria-disabled:cursor-not-allowed aria-disabled:opacity-50";
const plainButton = `${button} bg-white hover:bg-acid disabled:hover:bg-white aria-disabled:hover:bg-white`;
const strongButton = `${button} bg-ink text-acid hover:bg-ufo-deep hover:text-white aria-disabled:hover:bg-ink aria-disabled:hover:text-acid`;

/** Shows an action's toast once per answer, for as long as the spec says. */
function useAnswerToast(answer: ImageAnswer | undefined) {
  useEffect(() => {
    const message = answer?.toast;
    if (!message) return;
    const tone = message.tone === "error" ? "error" : message.title === IMAGE_TEXT.analysisComplete ? "success" : "info";
    showPanelToast({ tone, title: message.title, description: message.description ?? "", duration: actionToastDuration(message.title) });
  }, [answer]);
}

/**
 * The dashboard's image enhancement panel: analyse the newest stories'
 * images, enhance a batch (all that need work plus 10, or 10 or 50) after a confirmation with one
 * estimate from the measured speed of recent runs, or test one story; a run shows its progress and
 * can be cancelled, and ends in a toast with its numbers. Stories that failed for a lasting reason
 * are listed apart, with their reasons and a retry.
 */
export function ImagePanel({ state, activeJob }: { state: ImagePanelState; activeJob: JobView | null }) {
  const { needingWork, failed, throughput } = state;
  const id = useId();
  const analyze = useFetcher<ImageAnswer>();
  const start = useFetcher<ImageAnswer>();
  const cancel = useFetcher<ImageAnswer>();
  const { run, finished } = useImageRun(activeJob);
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  useAnswerToast(analyze.data);
  useAnswerToast(start.data);
  useAnswerToast(cancel.data);

  // A run the action queued (or one already going that it pointed to) is followed from here on.
  useEffect(() => {
    const answer = start.data;
    if (answer?.jobId && answer.run) followRun({ jobId: answer.jobId, kind: answer.run });
  }, [start.data]);

  const starting = start.state !== "idle";
  const startIntent = start.formData?.get("intent");
  const startBatch = Number(start.formData?.get("batchSize") ?? 0);
  const startMode = start.formData?.get("mode");
  const retrying = starting && startIntent === "retry-images" ? String(start.formData?.get("storyId") ?? "") : null;
  const locked = starting || run !== null;
  const nothingToDo = needingWork === 0;
  const bulkSize = bulkBatchSize(needingWork);
  const batches: (Batch & { label: string })[] = [
    // With nothing to do the batch would be an empty 10: the button is dimmed, with the reason beside it.
    { mode: "all", batchSize: bulkSize, label: nothingToDo ? "Enhance All" : `Enhance All (${bulkSize})` },
    ...QUICK_BATCHES.map((n) => ({ mode: "quick" as const, batchSize: n, label: `Enhance ${n}` })),
  ];

  return (
    <section aria-labelledby={`${id}-title`} className={panelClass}>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="max-w-2xl">
          <h2 id={`${id}-title`} className="font-display text-2xl font-extrabold">
            Image Enhancement
          </h2>
          <p className="mt-1 text-sm text-ink/70">
            Look on each story&apos;s original page for a larger image. Stories that already have a high-resolution image are skipped.
          </p>
        </div>
        <analyze.Form method="post">
          <input type="hidden" name="intent" value="analyze-images" />
          <button type="submit" disabled={analyze.state !== "idle"} aria-busy={analyze.state !== "idle"} className={plainButton}>
            {analyze.state !== "idle" ? <Spinner className="h-3.5 w-3.5" /> : null}
            {analyze.state !== "idle" ? "Analyzing..." : "Analyze Images"}
          </button>
        </analyze.Form>
      </div>

      <p className="mt-3 text-sm">
        {nothingToDo ? (
          "No story needs image enhancement: every story's image has been checked."
        ) : (
          <>
            <span className="font-bold">{plural(needingWork, "story needs", "stories need")}</span> image enhancement (never enhanced, or failed last time
            for a reason that may pass).
          </>
        )}
      </p>

      {run ? (
        <ImageRunProgress
          job={run.job}
          cancelling={cancel.state !== "idle"}
          onCancel={() => cancel.submit({ intent: "cancel-images", jobId: run.jobId }, { method: "post" })}
        />
      ) : null}

      <div className="mt-5 grid gap-6 lg:grid-cols-2">
        <div>
          <h3 className="font-bold">Bulk enhancement</h3>
          <p className="mt-1 text-sm text-ink/70">
            Enhance All takes every story that needs work, plus 10 for stories arriving meanwhile.{" "}
            {throughput ? `Speed measured: ${throughputText(throughput)}.` : "No run has been timed yet."}
          </p>
          <div className="mt-3 flex flex-wrap gap-2">
            {batches.map((batch, index) => {
              const mine = starting && startIntent === "enhance-bulk" && startMode === batch.mode && startBatch === batch.batchSize;
              return (
                <button
                  key={batch.label}
                  type="button"
                  onClick={() => {
                    if (!locked && !nothingToDo) setConfirming({ kind: "batch", batch });
                  }}
                  aria-disabled={locked || nothingToDo || undefined}
                  aria-busy={mine}
                  aria-describedby={nothingToDo ? `${id}-nothing` : locked ? `${id}-locked` : undefined}
                  className={index === 0 ? strongButton : plainButton}
                >
                  {mine ? <Spinner className="h-3.5 w-3.5" /> : null}
                  {batch.label}
                </button>
              );
            })}
          </div>
          {nothingToDo ? (
            <p id={`${id}-nothing`} className="mt-2 text-sm text-ink/70">
              Nothing to enhance yet: the batch buttons come back when a story needs work.
            </p>
          ) : locked ? (
            <p id={`${id}-locked`} className="mt-2 text-sm text-ink/70">
              One run at a time: these wait until the current run ends.
            </p>
          ) : null}
        </div>
        <div>
          <h3 className="font-bold">Test one story</h3>
          <p className="mt-1 text-sm text-ink/70">Enhance a single story&apos;s image now, by its ID (shown on each card under Stories).</p>
          <div className="mt-3">
            <ImageTestForm fetcher={start} disabled={locked} busy={starting && startIntent === "enhance-test"} />
          </div>
        </div>
      </div>

      <ImageFailedList
        id={id}
        failed={failed}
        locked={locked}
        busyId={retrying}
        buttonClass={plainButton}
        onRetry={(story) => start.submit({ intent: "retry-images", storyId: String(story.id) }, { method: "post" })}
        onRetryAll={() => setConfirming({ kind: "retry-all" })}
      />

      {finished && !run ? <ImageLastRun run={finished} /> : null}

      {confirming ? (
        <ImageBatchDialog
          text={confirming.kind === "batch" ? batchConfirmation(confirming.batch.batchSize, needingWork, throughput) : retryConfirmation(failed.count, throughput)}
          onCancel={() => setConfirming(null)}
          onConfirm={() => {
            setConfirming(null);
            if (confirming.kind === "retry-all") start.submit({ intent: "retry-images", storyId: "all" }, { method: "post" });
            else start.submit({ intent: "enhance-bulk", batchSize: String(confirming.batch.batchSize), mode: confirming.batch.mode }, { method: "post" });
          }}
        />
      ) : null}
    </section>
  );
}
