import { describe, expect, test } from "vitest";
import { z } from "zod";
import { DOMAIN_ERROR_KINDS, DomainError, type DomainErrorCode } from "~/domain/errors";
import { errorAnswer } from "./error-response.server";

const EXPECTED_STATUS = { "not-found": 404, conflict: 409, invalid: 400 } as const;

function recordingLogger() {
  const logged: { obj: Record<string, unknown>; msg: string }[] = [];
  return { logged, logger: { error: (obj: Record<string, unknown>, msg: string) => void logged.push({ obj, msg }) } };
}

describe("the one mapping from errors to answers", () => {
  test.each(Object.entries(DOMAIN_ERROR_KINDS) as [DomainErrorCode, keyof typeof EXPECTED_STATUS][])(
    "%s (%s) is answered with its status and its own message, and not logged as a failure",
    (code, kind) => {
      const { logged, logger } = recordingLogger();
      const answer = errorAnswer(new DomainError(code, `why ${code} happened`), logger, "Generic text");
      expect(answer).toEqual({ status: EXPECTED_STATUS[kind], code, message: `why ${code} happened` });
      expect(logged).toEqual([]);
    },
  );

  test("an invalid input carries its field messages", () => {
    const { logger } = recordingLogger();
    const error = new DomainError("INVALID_SOURCE", "Name is required.", { fields: { name: "Name is required." } });
    expect(errorAnswer(error, logger, "Generic")).toEqual({ status: 400, code: "INVALID_SOURCE", message: "Name is required.", fields: { name: "Name is required." } });
  });

  test("a schema failure is invalid input, with a message per field", () => {
    const { logged, logger } = recordingLogger();
    const parsed = z.object({ storyId: z.coerce.number().int().positive("Not a story id.") }).safeParse({ storyId: "-3" });
    expect(parsed.success).toBe(false);
    const answer = errorAnswer(parsed.error, logger, "Generic");
    expect(answer).toEqual({ status: 400, code: "INVALID_INPUT", message: "Not a story id.", fields: { storyId: "Not a story id." } });
    expect(logged).toEqual([]);
  });

  test.each([
    ["a database failure", new Error('duplicate key value violates unique constraint "x" (10.0.0.5)')],
    ["a thrown string", "connection refused"],
    ["a type error in our own code", new TypeError("cannot read properties of undefined")],
  ])("%s is logged with its stack and answered 500 with the screen's generic text only", (_name, thrown) => {
    const { logged, logger } = recordingLogger();
    const answer = errorAnswer(thrown, logger, "Failed to delete the story. Please try again.", { storyId: 7 });
    expect(answer).toEqual({ status: 500, code: "INTERNAL", message: "Failed to delete the story. Please try again." });
    expect(logged).toHaveLength(1);
    expect(logged[0]?.obj).toMatchObject({ err: thrown, storyId: 7 });
  });

  test("a DomainError from another copy of the module (the web build bundles its own) is still recognised", () => {
    const { logger } = recordingLogger();
    const foreign = Object.assign(new Error("That story no longer exists"), {
      [Symbol.for("oddwire.DomainError")]: true,
      code: "STORY_NOT_FOUND",
      kind: "not-found",
      fields: undefined,
    });
    expect(errorAnswer(foreign, logger, "Generic").status).toBe(404);
  });
});
