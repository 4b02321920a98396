import type { z } from "zod";
import { errorAnswer, type ErrorLogger } from "./error-response.server";

const NO_STORE = { "Cache-Control": "no-store" };

/** A JSON answer from an admin resource route; never cached, since it is one editor's data. */
export function json(body: unknown, init: { status?: number } = {}): Response {
  return Response.json(body, { status: init.status ?? 200, headers: NO_STORE });
}

/** The request's JSON body checked against a schema; throws a 400 JSON response when it does not fit. */
export async function readJsonBody<T extends z.ZodType>(request: Request, schema: T): Promise<z.infer<T>> {
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    throw json({ error: "The request body must be JSON." }, { status: 400 });
  }
  return parseOr400(schema, body);
}

/** A value checked against a schema; throws a 400 JSON response naming the first problem. */
export function parseOr400<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw json({ error: parsed.error.issues[0]?.message ?? "Invalid request" }, { status: 400 });
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
