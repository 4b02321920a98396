import type { Repos } from "~/db/repos";
import { regroupSameStories } from "~/domain/triage/same-story-regroup";
import { retrainDue, runTriage, type TriageDeps } from "~/domain/triage/triage";
import type { Logger } from "pino";
import type { OnProgress } from "~/lib/progress";
import type { JobHandlers } from "./runner";

/**
 * Regrouping reads and compares the whole inbox (7-8 s at 100,000 pending stories,
 * docs/benchmarks.md): once a regrouping takes a second or more, the poll regroups again only after
 * twenty times as long, so that however busy the feeds it takes at most a twentieth of a core. New
 * stories are still scored on every pass; an editor's 'Retrain now' always regroups.
 */
const REGROUP_SPACING = 20;
const REGROUP_ALWAYS_UNDER_MS = 1_000;

/**
 * Editorial triage as work in the background: the `triage` job an editor or a command asks for (a
 * retrain on demand), and the minute poll that runs one when stories came in or enough decisions
 * were made since the last (the poll itself reads a few figures and does nothing more otherwise).
 */
export function triageHandlers(deps: { repos: Repos; logger: Logger; now?: () => number }): Pick<JobHandlers, "triage" | "triage-poll"> {
  const now = deps.now ?? (() => performance.now());
  let lastRegroup: { endedAt: number; ms: number } | null = null;
  const triage: TriageDeps & { regroup: () => Promise<{ groups: number; grouped: number }> } = {
    models: deps.repos.triage,
    onModelFailure: (kind, error) => deps.logger.error({ err: error, model: kind }, "a triage model could not be trained; the last good one stays in use"),
    regroup: async () => {
      const started = now();
      const result = await regroupSameStories({ triage: deps.repos.triage });
      const endedAt = now();
      lastRegroup = { endedAt, ms: endedAt - started };
      return result;
    },
  };
  const regroupDue = () => lastRegroup === null || lastRegroup.ms < REGROUP_ALWAYS_UNDER_MS || now() - lastRegroup.endedAt >= REGROUP_SPACING * lastRegroup.ms;
  // The newest pending story the last regrouping saw, in this process: a pass runs again once a newer one came in.
  let seenUpTo = -1;
  const pass = async (retrain: boolean, regroup: boolean, ctx: { reportProgress?: OnProgress; signal?: AbortSignal }) => {
    const newest = await deps.repos.triage.newestPendingId();
    const result = await runTriage(triage, { retrain, regroup, onProgress: ctx.reportProgress, signal: ctx.signal });
    if (result.regrouped) seenUpTo = Math.max(seenUpTo, newest);
    return result;
  };
  return {
    triage: async (input, { reportProgress, signal }) => ({ ...(await pass(input.retrain, true, { reportProgress, signal })) }),
    "triage-poll": async ({ signal }) => {
      const newest = await deps.repos.triage.newestPendingId();
      const due = newest > seenUpTo || (await retrainDue(triage));
      if (!due) return { ran: 0 };
      const result = await pass(false, regroupDue(), { signal });
      return { ran: 1, scored: result.scored, grouped: result.grouped, retrained: result.retrained ? 1 : 0, regrouped: result.regrouped };
    },
  };
}
