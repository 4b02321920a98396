import { useEffect, useState } from "react";
import { useFetcher, useRevalidator } from "react-router";
import { toast } from "sonner";
import { requestJson } from "~/app/components/admin/admin-fetch";
import { useFollowAnswer, useFollowedJob } from "~/app/components/admin/job-poll";
import { useActionToast, type ActionResult } from "~/app/lib/action-toast";
import { formatCount, formatDate, formatTime } from "~/app/lib/format";
import { jobResult } from "~/domain/jobs/kinds";
import type { AdminStory } from "~/domain/stories/admin-list";
import type { TriageStatus } from "~/domain/triage/triage";

// The Pending list's triage: the order it is read in and why, the retrain button, each story's score
// and the words behind it, and the stories that report one event.

/** What the Stories page's `retrain` intent answers: the triage job, or a refusal's toast. */
export type TriageAnswer = { ok: true; jobId: string } | ActionResult;

/** Where this browser keeps a running triage, so a reload follows it. */
const TRIAGE_JOB_KEY = "oddwire.triage-job";

const percent = (score: number) => `${Math.round(score * 100)}%`;

/**
 * What the line above the Pending list says of its order: what the ranking learned from, or what it
 * waits for. With enough decisions and no ranking yet, the next pass of the triage job trains one.
 */
export function orderNote({ decisions, needed, model }: TriageStatus, order: string): { head: string; rest: string } {
  if (model) {
    return {
      head: order === "likely" ? "Most likely first" : "Ranking ready",
      rest: `learned from ${formatCount(model.published)} published and ${formatCount(model.rejected)} rejected stories, trained ${formatDate(model.trainedAt)} ${formatTime(model.trainedAt)}.`,
    };
  }
  const so = `${formatCount(decisions.published)} published and ${formatCount(decisions.rejected)} rejected`;
  if (decisions.published >= needed.published && decisions.rejected >= needed.rejected) {
    return { head: "Newest first", rest: `the ranking has enough decisions to learn from (${so}) and is trained within a minute, or now with Retrain now.` };
  }
  return {
    head: "Newest first",
    rest: `the ranking learns what this desk publishes once it has ${needed.published} published and ${needed.rejected} rejected stories (so far ${so}).`,
  };
}

/** The line above the Pending list: the order it is in, what it learned from, and 'Retrain now'. */
export function TriageBar({ triage, order }: { triage: TriageStatus & { runningJobId: string | null }; order: string }) {
  const fetcher = useFetcher<TriageAnswer>();
  const revalidator = useRevalidator();
  const found = triage.runningJobId ? { jobId: triage.runningJobId } : null;
  const { run, job, follow } = useFollowedJob({
    key: TRIAGE_JOB_KEY,
    found,
    onEnd: (_run, finished, detail) => {
      void revalidator.revalidate();
      if (finished?.status === "succeeded") {
        const result = jobResult("triage", finished);
        toast.success("Triage updated", {
          description: `${result.retrained ? "Models trained again; " : ""}${result.scored} pending ${result.scored === 1 ? "story" : "stories"} scored, ${result.grouped} in ${result.groups} same-story ${result.groups === 1 ? "group" : "groups"}.`,
        });
      } else {
        console.error("Triage failed:", detail);
        toast.error("Triage failed", { description: finished?.error ?? "Check the console for error details." });
      }
    },
  });
  useFollowAnswer(fetcher.data, follow);
  const running = fetcher.state !== "idle" || run !== null;
  const note = orderNote(triage, order);

  return (
    <div className="mt-3 flex flex-wrap items-center justify-between gap-x-4 gap-y-2 rounded-xl border-2 border-ink/20 bg-paper px-3 py-2 text-sm" aria-live="polite">
      <p className="min-w-0">
        <span className="font-bold">{note.head}</span>: {note.rest}
        {running ? <span className="ml-2 text-ink/70">{job?.message ?? "Triage running..."}</span> : null}
      </p>
      <button
        type="button"
        disabled={running}
        aria-busy={running}
        onClick={() => fetcher.submit({ intent: "retrain" }, { method: "post" })}
        className="h-8 rounded-full border-2 border-ink px-3 text-xs font-bold hover:bg-acid disabled:cursor-not-allowed disabled:opacity-60"
      >
        {running ? "Retraining..." : "Retrain now"}
      </button>
    </div>
  );
}

/** A pending story's score, discreet: how likely the desk is to publish it. */
export function ScoreBadge({ score }: { score: number }) {
  return (
    <span
      title={`${percent(score)} likely to be published, by what this desk published and rejected`}
      className="shrink-0 rounded-full border border-ink/25 px-1.5 text-[0.6875rem] leading-4 font-semibold text-ink/70 tabular-nums"
    >
      <span aria-hidden="true">{percent(score)}</span>
      <span className="sr-only">{percent(score)} likely to be published</span>
    </span>
  );
}

/** How each kind of feature (as `describeFeature` names it) is read in a sentence: one, and several. */
const KINDS: Record<string, { one: string; many: string; quote?: boolean }> = {
  word: { one: "the word", many: "the words" },
  "title word": { one: "the title word", many: "the title words" },
  words: { one: "the phrase", many: "the phrases", quote: true },
  letters: { one: "the letters", many: "the letters", quote: true },
  source: { one: "the source", many: "the sources" },
  site: { one: "the site", many: "the sites" },
};

/**
 * Features that moved a score, as a sentence's end: "the words goat, mayor; the phrase “florida man”;
 * the source Odd Wire", each kind once, in the order of its strongest feature.
 */
export function reasonsText(reasons: readonly { feature: string }[]): string {
  if (reasons.length === 0) return "nothing in particular";
  const groups = new Map<string, string[]>();
  for (const { feature } of reasons) {
    const colon = feature.indexOf(": ");
    const kind = colon > 0 && KINDS[feature.slice(0, colon)] ? feature.slice(0, colon) : "";
    const value = kind ? feature.slice(colon + 2) : feature;
    groups.set(kind, [...(groups.get(kind) ?? []), value]);
  }
  return [...groups]
    .map(([kind, values]) => {
      const how = KINDS[kind];
      if (!how) return values.join(", ");
      const shown = how.quote ? values.map((v) => `“${v}”`) : values;
      return `${values.length === 1 ? how.one : how.many} ${shown.join(", ")}`;
    })
    .join("; ");
}

type Explained = { score: number; trainedAt: string; reasons: { feature: string; weight: number }[] };

/** Why a story scored as it did: read when the editor opens the story's details. */
export function WhyScore({ storyId }: { storyId: number }) {
  const [state, setState] = useState<{ kind: "loading" } | { kind: "ok"; explained: Explained } | { kind: "error"; message: string }>({ kind: "loading" });
  useEffect(() => {
    const controller = new AbortController();
    void requestJson<Explained>(`/admin/api/triage?story=${storyId}`, { signal: controller.signal }).then((answer) => {
      if (controller.signal.aborted) return;
      setState(answer.kind === "ok" ? { kind: "ok", explained: answer.body } : { kind: "error", message: answer.message ?? "The score could not be explained." });
    });
    return () => controller.abort();
  }, [storyId]);
  if (state.kind === "loading") return <p>Reading why it scored so...</p>;
  if (state.kind === "error") return <p>{state.message}</p>;
  const { reasons, score } = state.explained;
  const raised = reasons.filter((r) => r.weight > 0);
  const lowered = reasons.filter((r) => r.weight < 0);
  return (
    <div>
      <p className="font-semibold">Why {percent(score)} likely</p>
      <p>Raised by {reasonsText(raised)}.</p>
      <p>Lowered by {reasonsText(lowered)}.</p>
    </div>
  );
}

/** The row's note that other sources report the same story. */
export function SameStoryNote({ sameStory }: { sameStory: NonNullable<AdminStory["sameStory"]> }) {
  const publishedCopy = sameStory.others.find((o) => o.status === "published");
  const pendingOthers = sameStory.others.filter((o) => o.status === "pending").length;
  return (
    <span className="shrink-0 rounded-full bg-ufo/10 px-1.5 text-[0.6875rem] leading-4 font-semibold text-ufo-deep">
      {publishedCopy ? `Already published as #${publishedCopy.id}` : `Also from ${pendingOthers} ${pendingOthers === 1 ? "source" : "sources"}`}
    </span>
  );
}

/** The stories of a same-story group, in the row's details: each with why it was grouped, and what to do with them. */
export function SameStoryDetails({
  story,
  onPublishGroup,
}: {
  story: AdminStory & { sameStory: NonNullable<AdminStory["sameStory"]> };
  onPublishGroup: (story: AdminStory) => void;
}) {
  const fetcher = useFetcher<ActionResult>();
  useActionToast(fetcher.data);
  const publishedCopy = story.sameStory.others.find((o) => o.status === "published");
  const pending = story.sameStory.others.filter((o) => o.status === "pending");
  return (
    <div>
      <p className="font-semibold">The same story</p>
      <ul className="space-y-0.5">
        {story.sameStory.others.map((other) => (
          <li key={other.id}>
            #{other.id} {other.title} ({other.sourceName ?? "no source"}
            {other.status === "published" ? ", published" : ""}){other.reason ? `: ${other.reason}` : ""}
          </li>
        ))}
      </ul>
      <div className="mt-1 flex flex-wrap gap-2">
        {publishedCopy ? (
          <button
            type="button"
            disabled={fetcher.state !== "idle"}
            onClick={() => fetcher.submit({ intent: "reject", storyId: String(story.id), duplicateOf: String(publishedCopy.id) }, { method: "post" })}
            className="h-7 rounded-full border-2 border-ink px-2.5 font-bold hover:bg-acid disabled:opacity-50"
          >
            Reject as a duplicate of #{publishedCopy.id}
          </button>
        ) : null}
        {pending.length > 0 && !publishedCopy ? (
          <button type="button" onClick={() => onPublishGroup(story)} className="h-7 rounded-full border-2 border-ink bg-acid px-2.5 font-bold hover:bg-ink hover:text-acid">
            Publish this, reject the other {pending.length}
          </button>
        ) : null}
      </div>
    </div>
  );
}
