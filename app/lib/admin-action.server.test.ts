import { describe, expect, test } from "vitest";
import { z } from "zod";
import { DomainError } from "~/domain/errors";
import { answerOf, refusalOf, routeArgs, routeContext } from "~/test/route-context";
import { adminAction, intent, UNKNOWN_ACTION, type Failure } from "./admin-action.server";
import { formFields } from "./form-fields";

// The one way an admin route acts on a form, walked as a table: each row is a form sent to a route
// of test intents, and the answer the editor gets.

const SITE = "https://oddwire.test";

function signedInAdmin() {
  const logged: { obj: unknown; msg: unknown }[] = [];
  const invalidated: string[] = [];
  const context = routeContext({
    getSessionUser: async () => ({ id: "boss", email: "boss@oddwire.test", name: "Boss", emailVerified: true }),
    repos: {
      users: {
        findById: async (id) => ({ id, name: "Boss", email: "boss@oddwire.test", emailVerified: true, image: null, isAdmin: true, createdAt: new Date(0), updatedAt: new Date(0) }),
      },
    },
    config: { siteUrl: SITE },
    logger: { warn: () => {}, error: (obj: unknown, msg?: unknown) => void logged.push({ obj, msg }) },
    invalidatePublicPages: () => void invalidated.push("pages"),
  });
  return { context, logged, invalidated };
}

const ROUTE_FAILURE: Failure = { title: "Error", fallback: "Failed to save. Please try again." };
const INTENTS = {
  rename: intent({
    schema: z.object({ id: z.coerce.number({ message: "That row is not known" }).int().positive("That row is not known"), name: z.string().trim().min(1, "Name is required") }),
    changesSite: true,
    run: async ({ id, name }, { me }) => ({ ok: true, toast: { title: `Renamed ${id} to ${name} by ${me.id}` } }),
  }),
  missing: intent({ schema: z.object({}), run: async () => Promise.reject(new DomainError("STORY_NOT_FOUND", "That story no longer exists")) }),
  clash: intent({ schema: z.object({}), changesSite: true, run: async () => Promise.reject(new DomainError("SLUG_TAKEN", 'The slug "odd" is already used by Odd')) }),
  refused: intent({
    schema: z.object({}),
    run: async () => Promise.reject(new DomainError("INVALID_SOURCE", "Name is required", { fields: { name: "Name is required" } })),
  }),
  broken: intent({ schema: z.object({}), run: async () => Promise.reject(new Error("connection to 10.0.0.5 refused")) }),
  worded: intent({
    schema: z.object({}),
    failure: { title: (answer, form) => `Delete failed (${answer.code}, ${String(form.mode)})`, fallback: "x", description: (answer) => `Error: ${answer.message}`, more: () => ({ intent: "worded" }) },
    run: async () => Promise.reject(new DomainError("SOURCE_NOT_FOUND", "That source no longer exists")),
  }),
};

async function send(fields: Record<string, string>) {
  const { context, logged, invalidated } = signedInAdmin();
  const request = new Request(`${SITE}/admin/test`, { method: "POST", headers: { origin: SITE }, body: new URLSearchParams(fields) });
  const answer = answerOf(await adminAction(routeArgs(request, context, {}), INTENTS, ROUTE_FAILURE));
  return { answer, logged, invalidated };
}

const error = (title: string, description: string) => ({ ok: false, toast: { title, description, tone: "error" } });

describe("an admin action, intent by intent", () => {
  test.each([
    ["a known intent with a form that fits runs the domain call", { intent: "rename", id: "7", name: " Odd " }, 200, { ok: true, toast: { title: "Renamed 7 to Odd by boss" } }],
    ["an unknown intent is refused the same way on every screen", { intent: "explode" }, 400, error("Error", UNKNOWN_ACTION)],
    ["no intent at all is an unknown one", {}, 400, error("Error", UNKNOWN_ACTION)],
    ["an inherited name is not an intent", { intent: "toString" }, 400, error("Error", UNKNOWN_ACTION)],
    [
      "a form that does not fit the schema is invalid input, each field's message under fields",
      { intent: "rename", id: "abc", name: " " },
      400,
      { ...error("Error", "That row is not known"), fields: { id: "That row is not known", name: "Name is required" } },
    ],
    ["a domain not-found is a 404 in the domain's words", { intent: "missing" }, 404, error("Error", "That story no longer exists")],
    ["a domain conflict is a 409 in the domain's words", { intent: "clash" }, 409, error("Error", 'The slug "odd" is already used by Odd')],
    ["a domain refusal carries its field messages under fields", { intent: "refused" }, 400, { ...error("Error", "Name is required"), fields: { name: "Name is required" } }],
    ["a failure that is not the editor's doing says only the screen's generic text", { intent: "broken" }, 500, error("Error", "Failed to save. Please try again.")],
    [
      "an intent's own wording titles and describes its failure, and adds what its screen reads",
      { intent: "worded", mode: "all" },
      404,
      { ...error("Delete failed (SOURCE_NOT_FOUND, all)", "Error: That source no longer exists"), intent: "worded" },
    ],
  ])("%s", async (_name, fields, status, body) => {
    const { answer } = await send(fields);
    expect(answer).toEqual({ status, body });
  });

  test("only a failure that is not the editor's doing is logged, with its intent and who acted", async () => {
    for (const intentName of ["explode", "rename", "missing", "clash", "refused"]) expect((await send({ intent: intentName })).logged).toEqual([]);
    const { logged } = await send({ intent: "broken" });
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ obj: { intent: "broken", actorUserId: "boss" }, msg: "Failed to save. Please try again." });
  });

  test("the public pages are dropped after a change the site shows, and only after it went through", async () => {
    expect((await send({ intent: "rename", id: "7", name: "Odd" })).invalidated).toEqual(["pages"]);
    expect((await send({ intent: "clash" })).invalidated).toEqual([]);
    expect((await send({ intent: "missing" })).invalidated).toEqual([]);
  });

  test("a change from another origin is refused by the admin gate before any intent runs", async () => {
    const { context, invalidated } = signedInAdmin();
    const request = new Request(`${SITE}/admin/test`, { method: "POST", headers: { origin: "https://elsewhere.example" }, body: new URLSearchParams({ intent: "rename", id: "7", name: "Odd" }) });
    expect((await refusalOf(adminAction(routeArgs(request, context, {}), INTENTS, ROUTE_FAILURE)))?.status).toBe(403);
    expect(invalidated).toEqual([]);
  });
});

describe("reading a submitted form", () => {
  test.each([
    ["single fields as text", [["name", "Odd"], ["intent", "create"]], { name: "Odd", intent: "create" }],
    ["a repeated field as a list in its order", [["includeKeywords", "b"], ["includeKeywords", "a"]], { includeKeywords: ["b", "a"] }],
    ["an empty field as empty text", [["notes", ""]], { notes: "" }],
    ["nothing as no fields", [], {}],
  ])("%s", (_name, entries, expected) => {
    const form = new FormData();
    for (const [key, value] of entries as [string, string][]) form.append(key, value);
    expect(formFields(form)).toEqual(expected);
  });
});
