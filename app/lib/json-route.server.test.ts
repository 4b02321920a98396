import { describe, expect, test } from "vitest";
import { z } from "zod";
import { DomainError } from "~/domain/errors";
import { failureResponse, json, methodNotAllowed, parseInput, readJsonBody } from "./json-route.server";

const Body = z.object({ urls: z.array(z.string()).min(1, "Paste one or more valid URLs first.") });
const post = (body: string) => new Request("https://oddwire.test/admin/api/scrape", { method: "POST", body, headers: { "content-type": "application/json" } });

async function refusal(promise: Promise<unknown> | (() => unknown)) {
  try {
    await (typeof promise === "function" ? promise() : promise);
  } catch (thrown) {
    const response = thrown as Response;
    return { status: response.status, body: await response.json() };
  }
  throw new Error("expected a refusal");
}

describe("reading an admin endpoint's input", () => {
  test("a body that fits the schema comes back parsed", async () => {
    expect(await readJsonBody(post('{"urls":["https://a.example"]}'), Body)).toEqual({ urls: ["https://a.example"] });
  });

  test("a body that is not JSON is refused with 400 as invalid input", async () => {
    expect(await refusal(readJsonBody(post("urls=1"), Body))).toEqual({ status: 400, body: { error: "The request body must be JSON.", code: "INVALID_INPUT" } });
  });

  test("a body or query that does not fit is refused by the one mapping: the schema's first message, its code and each field's message", async () => {
    expect(await refusal(readJsonBody(post('{"urls":[]}'), Body))).toEqual({
      status: 400,
      body: { error: "Paste one or more valid URLs first.", code: "INVALID_INPUT", fields: { urls: "Paste one or more valid URLs first." } },
    });
    expect(await refusal(() => parseInput(z.string().min(1, "Not a job id."), ""))).toEqual({ status: 400, body: { error: "Not a job id.", code: "INVALID_INPUT", fields: { _: "Not a job id." } } });
  });
});

describe("answering a failed domain call", () => {
  const logged: unknown[] = [];
  const logger = { error: (...args: unknown[]) => void logged.push(args) };

  test("a business-rule failure says what went wrong, with its kind's status, and is not logged as an error", async () => {
    const response = failureResponse(new DomainError("SOURCE_NOT_FOUND", "Source 9 does not exist."), logger, "Failed to scrape the URLs");
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "Source 9 does not exist.", code: "SOURCE_NOT_FOUND" });
    expect(logged).toEqual([]);
  });

  test("anything else is logged with its cause and answered with 500 and a message that reveals nothing internal", async () => {
    const response = failureResponse(new Error("connection to 10.0.0.5 refused"), logger, "Failed to scrape the URLs");
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: "Failed to scrape the URLs", code: "INTERNAL" });
    expect(logged).toHaveLength(1);
  });

  test("answers are never cached", () => {
    expect(json({ ok: true }).headers.get("cache-control")).toBe("no-store");
  });
});

test("a method an endpoint does not take is answered 405 with the one it does", async () => {
  const response = methodNotAllowed("POST");
  expect(response.status).toBe(405);
  expect(response.headers.get("allow")).toBe("POST");
  expect(await response.json()).toEqual({ error: "Use POST." });
});
