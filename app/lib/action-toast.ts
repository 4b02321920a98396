import { useEffect } from "react";
import { toast } from "sonner";

/** The toast an admin action returns for the page to show. */
export type ActionToast = { title: string; description?: string; tone?: "error" };

/** Shows the toast an action returned, once per result. */
export function useActionToast(result: { toast: ActionToast } | undefined) {
  useEffect(() => {
    if (!result) return;
    if (result.toast.tone === "error") toast.error(result.toast.title, { description: result.toast.description });
    else toast.success(result.toast.title, { description: result.toast.description });
  }, [result]);
}
