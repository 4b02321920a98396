import { z } from "zod";
import { fieldMessages, isDomainError, type DomainErrorKind } from "~/domain/errors";

/** Where an unexpected failure is written (a pino logger fits). */
export type ErrorLogger = { error: (obj: Record<string, unknown>, msg: string) => void };

/** What a failed request is answered with: the status, the words the editor sees, and per-field problems. */
export type ErrorAnswer = { status: 400 | 404 | 409 | 500; code: string; message: string; fields?: Record<string, string> };

const STATUS_OF_KIND: Record<DomainErrorKind, ErrorAnswer["status"]> = { "not-found": 404, conflict: 409, invalid: 400 };

/**
 * The one mapping from a thrown error to an answer, for every admin action and endpoint. A domain
 * error is answered by its kind with its own message; a schema failure is invalid input, with the
 * field messages; anything else is logged with its stack and answered with `fallback`, the screen's
 * generic text, so nothing internal (a database message, an address) reaches the editor.
 */
export function errorAnswer(error: unknown, logger: ErrorLogger, fallback: string, logFields: Record<string, unknown> = {}): ErrorAnswer {
  if (isDomainError(error)) {
    return { status: STATUS_OF_KIND[error.kind], code: error.code, message: error.message, ...(error.fields ? { fields: error.fields } : {}) };
  }
  if (error instanceof z.ZodError) {
    return { status: 400, code: "INVALID_INPUT", message: error.issues[0]?.message ?? "That request was not understood.", fields: fieldMessages(error.issues) };
  }
  logger.error({ err: error, ...logFields }, fallback);
  return { status: 500, code: "INTERNAL", message: fallback };
}
