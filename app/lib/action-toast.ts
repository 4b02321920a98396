import { useEffect, useRef } from "react";
import { toast } from "sonner";

/** The toast an admin action returns for the page to show. */
export type ActionToast = { title: string; description?: string; tone?: "error" };

/** What an admin action answers: its toast and, for a refused form, each field's problem. */
export type ActionResult = { ok: boolean; toast: ActionToast; fields?: Record<string, string> };

/**
 * The result of a failed action, from the one error mapping's answer (errorAnswer in
 * error-response.server.ts): its words, unless the screen has its own, and its field problems.
 */
export function failedAction(answer: { message: string; fields?: Record<string, string> }, title: string, description = answer.message): ActionResult {
  return { ok: false, toast: { title, description, tone: "error" }, ...(answer.fields ? { fields: answer.fields } : {}) };
}

/** Shows the toast an action returned, once per result. */
export function useActionToast(result: { toast: ActionToast } | undefined) {
  useEffect(() => {
    if (!result) return;
    if (result.toast.tone === "error") toast.error(result.toast.title, { description: result.toast.description });
    else toast.success(result.toast.title, { description: result.toast.description });
  }, [result]);
}

/**
 * Calls `onSuccess` once for each successful answer of a fetcher, when it has settled (the page's
 * data revalidated). Once, and not on every render while the answer stands: a caller whose onSuccess
 * navigates (closing a dialog kept in the URL) would otherwise navigate again on each render that the
 * navigation itself causes, each request cancelling the last, for ever.
 */
export function useActionSuccess(fetcher: { state: string; data?: { ok: boolean } }, onSuccess: () => void) {
  const handled = useRef(fetcher.data);
  const callback = useRef(onSuccess);
  useEffect(() => {
    callback.current = onSuccess;
  });
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data?.ok || handled.current === fetcher.data) return;
    handled.current = fetcher.data;
    callback.current();
  }, [fetcher.state, fetcher.data]);
}
