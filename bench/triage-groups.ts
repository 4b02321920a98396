// Same-story grouping and source yield benchmark: `npm run bench:triage-groups`.
//
// 1. Grouping alone (groupSameStories, pure): BENCH_PENDING pending stories (default 100,000) over
//    30 days from 300 sources, plus 2,000 published ones, on a generated vocabulary with a Zipf-like
//    spread. 4% of the stories are events told by 2-5 sources (reworded: words dropped, swapped and
//    replaced) or copied word for word; the rest are single stories, many sharing a template headline
//    per source. Prints the time (median of 3 runs) and how the groups compare with the events made:
//    stories grouped with a story of another event (wrong merges) and events found. The CPU time is
//    printed beside the wall time: on a shared machine it is the steadier of the two.
// 2. On a database (BENCH_DATABASES, default "embedded,postgres"): the same stories stored, then
//    regroupSameStories (read, group, write), the Pending list most likely first (every pending story
//    scored; pages 1 and 100, median of 11) and each source's yield for 7, 30 and 90 days (median of 5).
import { sql } from "drizzle-orm";
import { runMigrations } from "~/db/migrate";
import { createRepos } from "~/db/repos";
import { groupSameStories, type SameStoryInput } from "~/domain/triage/same-story";
import { regroupSameStories } from "~/domain/triage/same-story-regroup";
import { listAdminStories } from "~/domain/stories/admin-list";
import { sourceYields, YIELD_WINDOWS } from "~/domain/triage/yield";
import { errorMessage } from "~/lib/error-message";
import { benchDatabases, type BenchDatabaseKind } from "./databases";
import { openFreshDatabase } from "./fresh-database";

const out = (line: string) => process.stdout.write(`${line}\n`);
const PENDING = Number(process.env.BENCH_PENDING ?? 100_000);
const PUBLISHED = 2_000;
const SOURCES = 300;
const DAYS = 30;
const DATABASES = process.env.BENCH_DATABASES === "none" ? [] : benchDatabases();
const PG_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const NOW = Date.parse("2026-11-27T12:00:00Z");

// A seeded generator, so every run measures the same stories.
let seed = 42;
const random = () => {
  seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) | 0;
  return ((seed ^ (seed >>> 13)) >>> 0) / 4_294_967_296;
};
const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;

const SYLLABLES = ["ka", "lo", "mi", "ren", "tu", "sa", "vo", "ne", "gri", "pol", "dan", "es", "ul", "bro", "fi", "ter", "mon", "za", "qui", "lex", "or", "pan", "ve", "sho"];
const VOCABULARY = Array.from({ length: 40_000 }, (_, i) => {
  let word = "";
  for (let n = i + 7; word.length < 4 || n > 0; n = Math.floor(n / SYLLABLES.length)) word += SYLLABLES[n % SYLLABLES.length];
  return word;
});
const FUNCTION_WORDS = ["the", "a", "of", "in", "to", "and", "for", "on", "with", "after", "was", "has", "by", "at", "from"];
// Zipf-like: low ranks are drawn far more often than high ones.
const zipfWord = () => VOCABULARY[Math.min(VOCABULARY.length - 1, Math.floor(Math.exp(random() * Math.log(VOCABULARY.length))) - 1)]!;
const sentence = (length: number, names: string[] = []) => {
  const words: string[] = [];
  for (let i = 0; i < length; i++) words.push(random() < 0.3 ? pick(FUNCTION_WORDS) : random() < 0.15 && names.length ? pick(names) : zipfWord());
  return words;
};
const rare = () => VOCABULARY[20_000 + Math.floor(random() * 20_000)]!;

type Made = SameStoryInput & { event: number };

function reword(words: string[]): string[] {
  const next = [...words];
  for (let i = 0; i < next.length; i++) {
    const r = random();
    if (r < 0.08) next[i] = pick(FUNCTION_WORDS);
    else if (r < 0.12 && i + 1 < next.length) [next[i], next[i + 1]] = [next[i + 1]!, next[i]!];
  }
  return next;
}

function makeStories(): { pending: Made[]; published: Made[] } {
  const all: Made[] = [];
  let id = 1;
  let event = 1;
  const add = (sourceId: number, title: string[], summary: string[], at: number, ev: number) =>
    all.push({ id: id++, title: title.join(" "), summary: summary.join(" "), sourceId, sourceName: `Source ${sourceId}`, linkHost: `s${sourceId}.example`, at: new Date(at), event: ev });
  const total = PENDING + PUBLISHED;
  while (all.length < total) {
    const at = NOW - random() * DAYS * 86_400_000;
    if (random() < 0.015) {
      // One event, told by 2-5 sources within two days; a third of the retellings are copies.
      const names = [rare(), rare(), rare()];
      const title = [...sentence(6, names), names[0]!];
      const summary = [...sentence(28, names), names[1]!, names[2]!];
      const tellers = 2 + Math.floor(random() * 4);
      for (let k = 0; k < tellers && all.length < total; k++) {
        const copy = random() < 0.33;
        add(1 + Math.floor(random() * SOURCES), copy ? title : reword(title), copy ? summary : reword(summary), at + random() * 2 * 86_400_000, event);
      }
      event++;
    } else {
      // A single story; one in five under its source's template headline.
      const sourceId = 1 + Math.floor(random() * SOURCES);
      const title = random() < 0.2 ? ["police", "man", "arrested", `source${sourceId}`] : sentence(7 + Math.floor(random() * 5));
      add(sourceId, title, sentence(20 + Math.floor(random() * 30)), at, -id);
    }
  }
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [all[i], all[j]] = [all[j]!, all[i]!];
  }
  return { published: all.slice(0, PUBLISHED), pending: all.slice(PUBLISHED) };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function benchGrouping(pending: Made[], published: Made[]) {
  const times: number[] = [];
  const cpu: number[] = [];
  let groups = groupSameStories(pending, published);
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    groups = groupSameStories(pending, published);
    times.push(performance.now() - started);
    const used = process.cpuUsage(cpuStarted);
    cpu.push((used.user + used.system) / 1000);
  }
  const eventOf = new Map([...pending, ...published].map((s) => [s.id, s.event]));
  let wrong = 0;
  let grouped = 0;
  const found = new Set<number>();
  for (const group of groups) {
    const first = eventOf.get(group.groupId)!;
    for (const member of group.pending) {
      grouped++;
      if (eventOf.get(member.id) !== first) wrong++;
    }
    if (first > 0) found.add(first);
  }
  const events = new Set<number>();
  const pendingEvents = new Map<number, number>();
  for (const s of pending) if (s.event > 0) pendingEvents.set(s.event, (pendingEvents.get(s.event) ?? 0) + 1);
  const publishedEvents = new Set(published.filter((s) => s.event > 0).map((s) => s.event));
  // An event can be found when two of its tellings are pending, or one is pending and one published.
  for (const [ev, n] of pendingEvents) if (n >= 2 || publishedEvents.has(ev)) events.add(ev);
  const heap = process.memoryUsage().heapUsed / 1024 / 1024;
  out(`| grouping ${pending.length.toLocaleString("en")} pending + ${published.length.toLocaleString("en")} published | ${median(times).toFixed(0)} ms wall, ${median(cpu).toFixed(0)} ms CPU (runs: ${times.map((t) => t.toFixed(0)).join(", ")} ms wall) | groups ${groups.length}, stories grouped ${grouped}, grouped with another event's story ${wrong} | events findable ${events.size}, found ${[...found].filter((e) => events.has(e)).length} (${((100 * [...found].filter((e) => events.has(e)).length) / Math.max(1, events.size)).toFixed(1)}%) | heap ${heap.toFixed(0)} MB |`);
}

async function benchDatabase(kind: BenchDatabaseKind, pending: Made[], published: Made[]) {
  const { database, cleanup } = await openFreshDatabase(kind, { pgUrl: PG_URL, name: "oddwire_bench_triage", poolSize: 2 });
  try {
    await runMigrations(database);
    await database.exec(`INSERT INTO sources (name, source_type, website_url, rss_feed_url)
      SELECT 'Source ' || g, 'rss', 'https://s' || g || '.example', 'https://s' || g || '.example/feed' FROM generate_series(1, ${SOURCES}) g`);
    const rows = [...published.map((s) => ({ s, status: "published" })), ...pending.map((s) => ({ s, status: "pending" }))];
    const loadStarted = performance.now();
    for (let i = 0; i < rows.length; i += 5_000) {
      const batch = rows.slice(i, i + 5_000).map(({ s, status }) => ({ id: s.id, t: s.title, m: s.summary, src: s.sourceId, at: s.at.toISOString(), st: status }));
      await database.db.execute(sql`
        INSERT INTO stories (title, summary, original_url, normalized_url, url_hash, slug, status, source_id, created_at, publish_date)
        SELECT v.t, v.m, 'https://s' || v.src || '.example/' || v.id, 's' || v.src || '.example/' || v.id, md5(v.id::text), 'story-' || v.id,
               v.st::story_status, v.src, v.at, CASE WHEN v.st = 'published' THEN v.at END
        FROM jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) AS v(id int, t text, m text, src int, at timestamptz, st text)`);
    }
    // A rejection for one story in ten, half with the time it came in, half from before that was kept.
    await database.exec(`INSERT INTO rejected_stories (source_id, title, normalized_url, url_hash, rejected_at, ingested_at)
      SELECT 1 + g % ${SOURCES}, 'Rejected ' || g, 'rejected.example/' || g, md5('r' || g), now() - (g % 90) * interval '1 day',
             CASE WHEN g % 2 = 0 THEN now() - (g % 95) * interval '1 day' END
      FROM generate_series(1, ${Math.round(PENDING / 10)}) g`);
    await database.exec("ANALYZE");
    out(`| ${kind}: stored ${rows.length.toLocaleString("en")} stories in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s | | | | |`);
    const repos = createRepos(database.db);
    const first = await regroupSameStories({ triage: repos.triage, now: () => NOW });
    out(`| ${kind}: regroupSameStories, first run | ${first.ms} ms | read ${first.pending} pending + ${first.published} published, groups ${first.groups}, written ${first.changed} | | |`);
    const again = await regroupSameStories({ triage: repos.triage, now: () => NOW });
    out(`| ${kind}: regroupSameStories, nothing changed | ${again.ms} ms | written ${again.changed} | | |`);
    // The Pending list most likely first, as the Stories screen reads it: every pending story scored.
    await database.exec("UPDATE stories SET triage_score = ((id * 7919) % 10007) / 10007.0 WHERE status = 'pending'");
    // As autovacuum leaves a table once its writes settle: counts then read the status index alone.
    await database.exec("VACUUM ANALYZE stories");
    for (const page of [1, 100]) {
      const query = { status: "pending", search: "", categoryId: null, sourceId: null, sort: "auto", page } as const;
      const times: number[] = [];
      let shown = 0;
      for (let run = 0; run < 11; run++) {
        const started = performance.now();
        shown = (await listAdminStories(repos, query, { hasRanking: true })).stories.length;
        times.push(performance.now() - started);
      }
      out(`| ${kind}: Pending list most likely first, page ${page} | ${median(times).toFixed(1)} ms (median of 11) | ${shown} rows of ${PENDING.toLocaleString("en")} pending | | |`);
    }
    for (const days of YIELD_WINDOWS) {
      const times: number[] = [];
      let count = 0;
      for (let run = 0; run < 5; run++) {
        const started = performance.now();
        count = (await sourceYields({ triage: repos.triage }, { days })).sources.length;
        times.push(performance.now() - started);
      }
      out(`| ${kind}: sourceYields, ${days} days | ${median(times).toFixed(1)} ms (median of 5) | ${count} sources | | |`);
    }
  } finally {
    await cleanup();
  }
}

const { pending, published } = makeStories();
out(`Same-story grouping and source yield, ${new Date().toISOString()}`);
out("| what | time | result | recall | memory |");
out("|---|---|---|---|---|");
benchGrouping(pending, published);
for (const kind of DATABASES) {
  try {
    await benchDatabase(kind, pending, published);
  } catch (error) {
    out(`| ${kind} | failed: ${errorMessage(error)} | | | |`);
  }
}
