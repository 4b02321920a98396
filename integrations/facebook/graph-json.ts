// Reading the Graph API's JSON answers: each field is checked for its type, never trusted.

export type Json = Record<string, unknown>;
export const object = (value: unknown): Json => (typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : {});
export const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);
export const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** Seconds since the epoch to ISO; 0 or nothing to null. */
export function isoFromSeconds(value: unknown): string | null {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? new Date(value * 1000).toISOString() : null;
}

/** A body as JSON; undefined when it is not JSON (an HTML error page from a proxy, say). */
export function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    return undefined;
  }
}
