import type { z } from "zod";
import { DomainError } from "~/domain/errors";
import { errorAnswer, type ErrorLogger } from "./error-response.server";

const NO_STORE = { "Cache-Control": "no-store" };

/** A JSON answer from an admin resource route; never cached, since it is one editor's data. */
export function json(body: unknown, init: { status?: number } = {}): Response {
  return Response.json(body, { status: init.status ?? 200, headers: NO_STORE });
}

// A refused input is the caller's doing, never a failure of ours: the mapping has nothing to log.
const NOTHING_TO_LOG: ErrorLogger = { error: () => {} };

/** The request's JSON body checked against a schema; throws the invalid-input answer when it is not JSON or does not fit. */
export async function readJsonBody<T extends z.ZodType>(request: Request, schema: T): Promise<z.infer<T>> {
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    throw failureResponse(new DomainError("INVALID_INPUT", "The request body must be JSON."), NOTHING_TO_LOG, "");
  }
  return parseInput(schema, body);
}

/**
 * A value (a query, a path parameter) checked against a schema; throws the one mapping's answer to
 * invalid input when it does not fit: 400, `{error, code: "INVALID_INPUT", fields}`.
 */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw failureResponse(parsed.error, NOTHING_TO_LOG, "");
  return parsed.data;
}

/** The JSON answer for a failed call, by the one error mapping (errorAnswer): `{error, code, fields?}`. */
export function failureResponse(error: unknown, logger: ErrorLogger, fallback: string): Response {
  const answer = errorAnswer(error, logger, fallback);
  return json({ error: answer.message, code: answer.code, ...(answer.fields ? { fields: answer.fields } : {}) }, { status: answer.status });
}

/** The answer to a method an endpoint does not take (a GET on a POST endpoint, say). */
export function methodNotAllowed(allow: "GET" | "POST"): Response {
  return Response.json({ error: `Use ${allow}.` }, { status: 405, headers: { ...NO_STORE, Allow: allow } });
}
