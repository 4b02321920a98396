import { useEffect } from "react";
import { toast } from "sonner";

/** The toast an admin action returns for the page to show. */
export type ActionToast = { title: string; description?: string; tone?: "error" };

/** What an admin action answers: its toast and, for a refused form, each field's problem. */
export type ActionResult = { ok: boolean; toast: ActionToast; fieldErrors?: Record<string, string> };

/**
 * The result of a failed action, from the one error mapping's answer (errorAnswer in
 * error-response.server.ts): its words, unless the screen has its own, and its field problems.
 */
export function failedAction(answer: { message: string; fields?: Record<string, string> }, title: string, description = answer.message): ActionResult {
  return { ok: false, toast: { title, description, tone: "error" }, ...(answer.fields ? { fieldErrors: answer.fields } : {}) };
}

/** Shows the toast an action returned, once per result. */
export function useActionToast(result: { toast: ActionToast } | undefined) {
  useEffect(() => {
    if (!result) return;
    if (result.toast.tone === "error") toast.error(result.toast.title, { description: result.toast.description });
    else toast.success(result.toast.title, { description: result.toast.description });
  }, [result]);
}
