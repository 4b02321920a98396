import type { z } from "zod";
import type { Logger } from "pino";
import { DomainError } from "~/domain/errors";

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

/**
 * The JSON answer for a failed domain call: a DomainError's own message with 400, anything else
 * logged with its cause and answered with a 500 and a message that reveals nothing internal.
 */
export function failureResponse(error: unknown, logger: Pick<Logger, "error">, message: string): Response {
  if (error instanceof DomainError) return json({ error: error.message, code: error.code }, { status: 400 });
  logger.error({ err: error }, message);
  return json({ error: message }, { status: 500 });
}

/** The answer to a method an endpoint does not take (a GET on a POST endpoint, say). */
export function methodNotAllowed(allow: "GET" | "POST"): Response {
  return Response.json({ error: `Use ${allow}.` }, { status: 405, headers: { ...NO_STORE, Allow: allow } });
}
