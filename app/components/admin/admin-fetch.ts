import { errorMessage } from "~/lib/error-message";

/** How a call to one of our admin endpoints ended: a JSON answer, an error status, or no answer at all. */
export type JsonAnswer<T> =
  | { kind: "ok"; status: number; body: T }
  | { kind: "error"; status: number; message: string | null }
  | { kind: "network"; message: string };

/** Calls an admin endpoint with an optional JSON body and reads its JSON answer; never throws. */
export async function requestJson<T>(url: string, init: { method?: "GET" | "POST"; body?: unknown; signal?: AbortSignal } = {}): Promise<JsonAnswer<T>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method ?? "GET",
      headers: init.body === undefined ? { Accept: "application/json" } : { Accept: "application/json", "Content-Type": "application/json" },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      credentials: "same-origin",
      signal: init.signal,
    });
  } catch (error) {
    return { kind: "network", message: errorMessage(error) };
  }
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (response.ok && body !== null) return { kind: "ok", status: response.status, body: body as T };
  if (response.status === 401) return { kind: "error", status: 401, message: "Your session has ended. Sign in again." };
  const message = body && typeof body === "object" && typeof (body as { error?: unknown }).error === "string" ? (body as { error: string }).error : null;
  return { kind: "error", status: response.status, message };
}
