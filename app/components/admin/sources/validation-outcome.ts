import type { RssValidationResult } from "~/domain/ingestion/validate-feed";
import type { JsonAnswer } from "~/app/components/admin/admin-fetch";

export type ToastMessage = { tone: "success" | "error"; title: string; description: string };

/** The result card and the toast for one validation, in the spec's words (section 8, RSS validate). */
export function validationOutcome(answer: JsonAnswer<RssValidationResult>): { result: RssValidationResult; toast: ToastMessage } {
  if (answer.kind === "network") {
    const error = "Network error while validating RSS feed";
    return { result: failedResult("NETWORK_ERROR", error), toast: { tone: "error", title: "Validation Error", description: error } };
  }
  if (answer.kind === "error") {
    const error = answer.message || "Failed to validate RSS feed";
    return { result: failedResult("FETCH_ERROR", error), toast: { tone: "error", title: "Validation Failed", description: error } };
  }
  const result = answer.body;
  if (!result.ok) {
    return { result, toast: { tone: "error", title: "Invalid RSS Feed", description: result.error || "The URL does not contain a valid RSS feed" } };
  }
  return { result, toast: { tone: "success", title: "Valid RSS Feed", description: `Found ${result.info.itemsCount} items in the feed.` } };
}

function failedResult(code: string, error: string): RssValidationResult {
  return {
    ok: false,
    type: null,
    code,
    error,
    meta: { contentType: null, bytes: 0 },
    info: { title: null, description: null, itemsCount: 0, lastUpdated: null },
    sample: [],
  };
}
