import pino from "pino";
import { describe, expect, test } from "vitest";
import { makeStory } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { triageHandlers } from "./triage.job";

const t = testDatabaseForFile();
const ctx = { jobId: "poll", signal: new AbortController().signal, reportProgress: () => {}, resumedSince: null };

describe("the triage poll", () => {
  test("runs a pass when stories came in since the last, and does nothing otherwise", async () => {
    const handlers = triageHandlers({ repos: t.repos, logger: pino({ level: "silent" }) });
    const first = await makeStory(t.db, { status: "pending", title: "A goat elected mayor", summary: "The goat won the vote in a small town." });
    expect(await handlers["triage-poll"](ctx)).toMatchObject({ ran: 1 });
    expect(await handlers["triage-poll"](ctx)).toEqual({ ran: 0 });
    // The same story from another outlet: the next pass groups the two.
    const copy = await makeStory(t.db, { status: "pending", title: "Goat elected mayor", summary: "The goat won the vote in a small town.", sourceUrl: "https://other.example/goat" });
    expect(await handlers["triage-poll"](ctx)).toMatchObject({ ran: 1, grouped: 2 });
    expect((await t.repos.triage.pendingTriage({ limit: 10, sourceId: null, byScore: false })).map((s) => [s.id, s.groupId])).toEqual([
      [copy.id, first.id],
      [first.id, first.id],
    ]);
  });

  test("on a large inbox the poll regroups at most once per twenty times the last regrouping took", async () => {
    // A clock that moves a second at each reading: every regrouping takes a second by it, as on a large inbox.
    let clock = 0;
    const handlers = triageHandlers({ repos: t.repos, logger: pino({ level: "silent" }), now: () => (clock += 1_000) });
    const first = await makeStory(t.db, { status: "pending", title: "A goat elected mayor", summary: "The goat won the vote in a small town." });
    expect(await handlers["triage-poll"](ctx)).toMatchObject({ ran: 1, regrouped: true });
    const copy = await makeStory(t.db, { status: "pending", title: "Goat elected mayor", summary: "The goat won the vote in a small town.", sourceUrl: "https://other.example/goat" });
    // Within 20 x 1 s of the last regrouping: a pass runs, without regrouping.
    expect(await handlers["triage-poll"](ctx)).toMatchObject({ ran: 1, regrouped: false });
    expect((await t.repos.triage.pendingTriage({ limit: 10, sourceId: null, byScore: false })).map((s) => s.groupId)).toEqual([null, null]);
    // The stories not yet grouped keep the poll coming back until they are.
    clock += 20_000;
    expect(await handlers["triage-poll"](ctx)).toMatchObject({ ran: 1, regrouped: true, grouped: 2 });
    expect((await t.repos.triage.pendingTriage({ limit: 10, sourceId: null, byScore: false })).map((s) => [s.id, s.groupId])).toEqual([
      [copy.id, first.id],
      [first.id, first.id],
    ]);
    expect(await handlers["triage-poll"](ctx)).toEqual({ ran: 0 });
    // Asked for, a pass always regroups.
    expect(await handlers.triage({ retrain: true }, ctx)).toMatchObject({ groups: 1, grouped: 2 });
  });

  test("the triage job trains again on demand and reports what it did", async () => {
    const handlers = triageHandlers({ repos: t.repos, logger: pino({ level: "silent" }) });
    await makeStory(t.db, { status: "pending" });
    // Too few decisions: nothing to train, the inbox still gets its groups.
    expect(await handlers.triage({ retrain: true }, ctx)).toMatchObject({ retrained: false, scored: 0, groups: 0 });
  });
});
