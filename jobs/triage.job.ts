import type { Repos } from "~/db/repos";
import { regroupSameStories } from "~/domain/triage/same-story-regroup";
import { retrainDue, runTriage, type TriageDeps } from "~/domain/triage/triage";
import type { Logger } from "pino";
import type { OnProgress } from "~/lib/progress";
import type { JobHandlers } from "./runner";

/**
 * Editorial triage as work in the background: the `triage` job an editor or a command asks for (a
 * retrain on demand), and the minute poll that runs one when stories came in or enough decisions
 * were made since the last (the poll itself reads two figures and does nothing more otherwise).
 */
export function triageHandlers(deps: { repos: Repos; logger: Logger }): Pick<JobHandlers, "triage" | "triage-poll"> {
  const triage: TriageDeps & { regroup: () => Promise<{ groups: number; grouped: number }> } = {
    models: deps.repos.triage,
    onModelFailure: (kind, error) => deps.logger.error({ err: error, model: kind }, "a triage model could not be trained; the last good one stays in use"),
    regroup: () => regroupSameStories({ triage: deps.repos.triage }),
  };
  // The newest pending story the last pass saw, in this process: a pass runs again once a newer one came in.
  let seenUpTo = -1;
  const pass = async (retrain: boolean, ctx: { reportProgress?: OnProgress; signal?: AbortSignal }) => {
    const newest = await deps.repos.triage.newestPendingId();
    const result = await runTriage(triage, { retrain, onProgress: ctx.reportProgress, signal: ctx.signal });
    seenUpTo = Math.max(seenUpTo, newest);
    return result;
  };
  return {
    triage: async (input, { reportProgress, signal }) => ({ ...(await pass(input.retrain, { reportProgress, signal })) }),
    "triage-poll": async ({ signal }) => {
      const newest = await deps.repos.triage.newestPendingId();
      const due = newest > seenUpTo || (await retrainDue(triage));
      if (!due) return { ran: 0 };
      const result = await pass(false, { signal });
      return { ran: 1, scored: result.scored, grouped: result.grouped, retrained: result.retrained ? 1 : 0 };
    },
  };
}
