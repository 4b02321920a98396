// Editorial triage, speed and quality: `npm run bench:triage`. Figures: docs/benchmarks.md.
//
// Speed: trains the ranking and category models on synthetic decisions of realistic size and
// scores new stories. Quality: the ranking and the category suggestion on public labelled news,
// older 70% as the desk's decisions and newer 30% as the inbox (bench/data/README.md says where
// the files come from):
//   TRIAGE_NEWS_FILE   HuffPost's News Category Dataset, JSON lines or the committed TSV sample
//                      (default bench/data/huffpost-news-10k.tsv)
//   TRIAGE_REUTERS_DIR Debian's weka examples folder holding ReutersCorn-*.arff and ReutersGrain-*.arff
import { existsSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { rankCategories, trainCategorizer, type CategorizerModel } from "~/domain/triage/categorizer";
import { scoreStory, trainRanker, type RankerDecision, type RankerOptions } from "~/domain/triage/ranker";
import type { TriageText } from "~/domain/triage/text-features";
import { loadNewsCategoryDataset, loadWekaReuters, syntheticDecisions, type LabelledItem } from "./triage-data";

const out = (line = "") => process.stdout.write(`${line}\n`);
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const ms = (x: number) => `${x.toFixed(0)} ms`;

/** Area under the ROC curve: the chance that a random positive scores above a random negative (ties count half). */
export function auc(scores: number[], positives: boolean[]): number {
  const order = scores.map((s, i) => ({ s, p: positives[i]! })).sort((a, b) => a.s - b.s);
  let rankSum = 0;
  let nPos = 0;
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j < order.length && order[j]!.s === order[i]!.s) j += 1;
    const midRank = (i + 1 + j) / 2;
    for (let k = i; k < j; k += 1) if (order[k]!.p) {
      rankSum += midRank;
      nPos += 1;
    }
    i = j;
  }
  const nNeg = order.length - nPos;
  return nPos === 0 || nNeg === 0 ? Number.NaN : (rankSum - (nPos * (nPos + 1)) / 2) / (nPos * nNeg);
}

/** The share of all positives found in the top `fraction` of the list sorted by score (ties: newest first). */
export function shareInTop(scores: number[], positives: boolean[], fraction: number): number {
  const order = scores.map((s, i) => ({ s, i })).sort((a, b) => b.s - a.s || b.i - a.i);
  const top = order.slice(0, Math.ceil(order.length * fraction));
  const total = positives.filter(Boolean).length;
  return total === 0 ? Number.NaN : top.filter(({ i }) => positives[i]).length / total;
}

function time<T>(run: () => T): { value: T; ms: number; cpuMs: number } {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const value = run();
  const used = process.cpuUsage(cpu);
  return { value, ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000 };
}

const both = (t: { ms: number; cpuMs: number }) => `${ms(t.ms)} (CPU ${ms(t.cpuMs)})`;

// A fixed loop, to scale the figures to another machine or to a busier moment of this one.
function referenceLoop(): number {
  const data = new Float64Array(10_000_000).fill(1.5);
  return time(() => {
    let sum = 0;
    for (let i = 0; i < data.length; i += 1) sum += data[i]! * 1.1;
    return sum;
  }).ms;
}

function speed() {
  out("## Speed (synthetic decisions: titles ~10 words, summaries ~40, 50 sources, 200 sites, 2% published)");
  out(`reference loop (10M multiply-adds): ${ms(referenceLoop())}`);
  const all = syntheticDecisions(11_000);
  const decisions = all.slice(0, 10_000);
  const inbox = all.slice(10_000);
  for (const [name, options] of [
    ["logistic, words + pairs", { algorithm: "logistic", titlePairs: true }],
    ["naive Bayes, words", { algorithm: "naive-bayes", titlePairs: false }],
  ] as [string, RankerOptions][]) {
    const trained = time(() => trainRanker(decisions, options));
    const json = JSON.stringify(trained.value);
    const model = JSON.parse(json) as typeof trained.value;
    const scored = time(() => inbox.map((story) => scoreStory(model, story)));
    out(`ranker ${name}: train 10,000 decisions ${both(trained)}; score 1,000 stories ${both(scored)}; model ${(json.length / 1e6).toFixed(2)} MB, ${model.vocabulary.features.length} features`);
  }
  const published = all.slice(0, 10_000);
  const trained = time(() => trainCategorizer(published));
  const json = JSON.stringify(trained.value);
  const model = JSON.parse(json) as CategorizerModel;
  const scored = time(() => inbox.map((story) => rankCategories(model, story)));
  out(`categorizer: train 10,000 published stories in 30 categories ${both(trained)}; suggest for 1,000 stories ${both(scored)}; model ${(json.length / 1e6).toFixed(2)} MB`);
  out();
}

type Split<T> = { decisions: T[]; inbox: T[] };
const split = <T>(items: T[], share = 0.7): Split<T> => {
  const cut = Math.floor(items.length * share);
  return { decisions: items.slice(0, cut), inbox: items.slice(cut) };
};

const RANKERS: [string, RankerOptions][] = [
  ["logistic, words", { algorithm: "logistic", titlePairs: false }],
  ["logistic, words + title pairs (default)", { algorithm: "logistic", titlePairs: true }],
  ["logistic, words + title pairs, no plural folding", { algorithm: "logistic", titlePairs: true, stemming: false }],
  ["naive Bayes, words", { algorithm: "naive-bayes", titlePairs: false }],
  ["naive Bayes, words + title pairs", { algorithm: "naive-bayes", titlePairs: true }],
];

function rankingReport(label: string, decisions: RankerDecision[], inbox: (TriageText & { positive: boolean })[], reference = "newest first") {
  const positives = inbox.map((s) => s.positive);
  const published = decisions.filter((d) => d.published).length;
  out(`### ${label}`);
  out(`decisions ${decisions.length} (${published} published, ${pct(published / decisions.length)}); inbox ${inbox.length} (${positives.filter(Boolean).length} positive, ${pct(positives.filter(Boolean).length / inbox.length)})`);
  // Newest first: the inbox is in date order, so the later an item, the higher it sits.
  // (Weka's Reuters files are a date split but not dated within it: there it is their file order.)
  const newest = inbox.map((_, i) => i);
  out(`| order | AUC | positives in top 10% | train |`);
  out(`|---|---|---|---|`);
  out(`| ${reference} | ${auc(newest, positives).toFixed(3)} | ${pct(shareInTop(newest, positives, 0.1))} | - |`);
  const grid = (process.env.TRIAGE_C ?? "").split(",").filter(Boolean).map(Number);
  const variants: [string, RankerOptions][] = [...RANKERS, ...grid.map((c) => [`logistic, words + title pairs, C=${c}`, { algorithm: "logistic", titlePairs: true, c }] as [string, RankerOptions])];
  for (const [name, options] of variants) {
    const trained = time(() => trainRanker(decisions, options));
    const scores = inbox.map((s) => scoreStory(trained.value, s).score);
    out(`| ${name} | ${auc(scores, positives).toFixed(3)} | ${pct(shareInTop(scores, positives, 0.1))} | ${ms(trained.ms)} |`);
  }
  out();
}

// HuffPost renamed some sections over the years; the same desk would have one category for each pair.
const MERGED: Record<string, string> = {
  "ARTS": "ARTS & CULTURE",
  "CULTURE & ARTS": "ARTS & CULTURE",
  "PARENTS": "PARENTING",
  "STYLE": "STYLE & BEAUTY",
  "GREEN": "ENVIRONMENT",
  "THE WORLDPOST": "WORLD NEWS",
  "WORLDPOST": "WORLD NEWS",
  "TASTE": "FOOD & DRINK",
  "HEALTHY LIVING": "WELLNESS",
  "COLLEGE": "EDUCATION",
};

function categoryReport(decisions: LabelledItem[], inbox: LabelledItem[]) {
  const slug = (c: string) => MERGED[c] ?? c;
  const published = decisions.map((item) => ({ ...item, sourceId: null, categorySlug: slug(item.category) }));
  const trained = time(() => trainCategorizer(published));
  const model = trained.value;
  const known = new Set(model.categories.map((c) => c.slug));
  const ranked = inbox.map((item) => ({ truth: slug(item.category), ranking: rankCategories(model, { ...item, sourceId: null }) }));
  out(`### Category suggestion`);
  out(`trained on ${published.length} stories, ${model.categories.length} categories (with at least 3 stories) in ${ms(trained.ms)}; inbox ${inbox.length}, of which ${ranked.filter((r) => known.has(r.truth)).length} in a known category`);
  const majority = [...model.categories].sort((a, b) => b.stories - a.stories)[0]?.slug;
  out(`most frequent category for all: ${pct(ranked.filter((r) => r.truth === majority).length / ranked.length)}`);
  out(`| minimum confidence | suggested | right when suggested | right over all stories |`);
  out(`|---|---|---|---|`);
  for (const threshold of [0, 0.1, 0.2, 0.3, 0.4, 0.5]) {
    const suggested = ranked.filter((r) => (r.ranking[0]?.confidence ?? 0) >= threshold);
    const right = suggested.filter((r) => r.ranking[0]?.slug === r.truth).length;
    out(`| ${threshold.toFixed(1)} | ${pct(suggested.length / ranked.length)} | ${pct(right / Math.max(1, suggested.length))} | ${pct(right / ranked.length)} |`);
  }
  const top3 = ranked.filter((r) => r.ranking.slice(0, 3).some((c) => c.slug === r.truth)).length;
  out(`right category among the top 3: ${pct(top3 / ranked.length)}`);
  out();
}

function newsCategoryQuality(path: string) {
  const items = loadNewsCategoryDataset(path).filter((item) => item.title.trim() !== "" || item.summary);
  const weird = items.filter((item) => item.category === "WEIRD NEWS").length;
  const categories = new Set(items.map((item) => MERGED[item.category] ?? item.category)).size;
  out(`## Quality: News Category Dataset (${path})`);
  out(`${items.length} items from ${items[0]?.date} to ${items.at(-1)?.date}, ${weird} WEIRD NEWS (${pct(weird / items.length)}), ${categories} categories after merging renamed sections`);
  out();
  const { decisions, inbox } = split(items);
  const asDecision = (item: LabelledItem): RankerDecision => ({ title: item.title, summary: item.summary, sourceId: null, linkHost: item.linkHost, published: item.category === "WEIRD NEWS" });
  rankingReport(
    "Ranking: WEIRD NEWS published, everything else rejected",
    decisions.map(asDecision),
    inbox.map((item) => ({ ...asDecision(item), positive: item.category === "WEIRD NEWS" })),
  );
  categoryReport(decisions, inbox);
}

function reutersQuality(dir: string) {
  for (const topic of ["Corn", "Grain"]) {
    const train = loadWekaReuters(join(dir, `Reuters${topic}-train.arff`));
    const test = loadWekaReuters(join(dir, `Reuters${topic}-test.arff`));
    const asDecision = (item: (typeof train)[number]): RankerDecision => ({ title: item.title, summary: item.summary, sourceId: null, linkHost: null, published: item.positive });
    out(`## Quality: Reuters-21578 ModApte, topic ${topic.toLowerCase()} (Weka's examples, ${dir})`);
    rankingReport(`Ranking: ${topic.toLowerCase()} published, everything else rejected; older training split as decisions, newer test split as inbox`, train.map(asDecision), test.map((item) => ({ ...asDecision(item), positive: item.positive })), "file order");
  }
}

out(`# bench:triage on ${cpus().length} cores (${cpus()[0]?.model ?? "unknown"}), Node ${process.version}`);
out();
if (process.env.TRIAGE_SKIP_SPEED !== "1") speed();
const newsFile = process.env.TRIAGE_NEWS_FILE ?? join(import.meta.dirname, "data", "huffpost-news-10k.tsv");
if (existsSync(newsFile)) newsCategoryQuality(newsFile);
else out(`(no News Category Dataset at ${newsFile}: see bench/data/README.md)`);
const reutersDir = process.env.TRIAGE_REUTERS_DIR;
if (reutersDir && existsSync(reutersDir)) reutersQuality(reutersDir);
else out("(TRIAGE_REUTERS_DIR not set: see bench/data/README.md for Reuters-21578 from Debian's weka package)");
