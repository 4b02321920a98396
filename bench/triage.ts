// Editorial triage, speed and quality: `npm run bench:triage`. Figures: docs/benchmarks.md.
//
// Speed: trains the ranking and category models on synthetic decisions of realistic size and
// scores new stories. Quality: the ranking and the category suggestion on public labelled news,
// older 70% as the desk's decisions and newer 30% as the inbox (bench/data/README.md says where
// the files come from). Settings are chosen on time-ordered folds inside the decisions only
// (bench/triage-validation.ts); the inbox is read once, for the settings before and the product's.
//   TRIAGE_NEWS_FILE   HuffPost's News Category Dataset, JSON lines or the committed TSV sample
//                      (default bench/data/huffpost-news.tsv)
//   TRIAGE_REUTERS_DIR Debian's weka examples folder holding ReutersCorn-*.arff and ReutersGrain-*.arff
//   TRIAGE_SKIP_GRID=1 validates only the settings before and the product's, not every candidate
//   TRIAGE_VALIDATION_ONLY=1 stops before the inbox (for choosing settings)
//   TRIAGE_SKIP_SPEED=1 leaves out the speed figures
import { existsSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { CATEGORIZER_DEFAULTS, rankCategories, trainCategorizer, type CategorizedStory, type CategorizerModel, type CategorizerOptions } from "~/domain/triage/categorizer";
import { RANKER_DEFAULTS, scoreStory, trainRanker, type RankerDecision, type RankerOptions } from "~/domain/triage/ranker";
import type { TriageText } from "~/domain/triage/text-features";
import { MAX_CATEGORISED } from "~/domain/triage/triage";
import { loadNewsCategoryDataset, loadWekaReuters, sectionCategory, syntheticDecisions, type LabelledItem } from "./triage-data";
import {
  auc,
  bootstrapInterval,
  CATEGORIZER_BEFORE,
  CATEGORY_GRID,
  changes,
  choose,
  RANKER_BEFORE,
  RANKING_GRID,
  rankingCriterion,
  shareInTop,
  timeFolds,
  validateCategorizer,
  validateRanker,
  type CategoryFigures,
  type RankingFigures,
} from "./triage-validation";

const out = (line = "") => process.stdout.write(`${line}\n`);
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const ms = (x: number) => `${x.toFixed(0)} ms`;

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

// The settings before this selection and the product's defaults (what the triage job trains with).
const RANKER_ROWS: [string, RankerOptions][] = [
  ["before (logistic, C=10, min df 2)", { ...RANKER_BEFORE, calibrate: false }],
  ["product defaults", {}],
];
const CATEGORIZER_ROWS: [string, CategorizerOptions][] = [
  ["before (softmax, C=10)", CATEGORIZER_BEFORE],
  ["product defaults", {}],
];

function speed() {
  out("## Speed (synthetic decisions: titles ~10 words, summaries ~40, 50 sources, 200 sites, 2% published)");
  out(`reference loop (10M multiply-adds): ${ms(referenceLoop())}`);
  const all = syntheticDecisions(11_000);
  const decisions = all.slice(0, 10_000);
  const inbox = all.slice(10_000);
  for (const [name, options] of RANKER_ROWS) {
    const trained = time(() => trainRanker(decisions, options));
    const json = JSON.stringify(trained.value);
    const model = JSON.parse(json) as typeof trained.value;
    const scored = time(() => inbox.map((story) => scoreStory(model, story)));
    out(`ranker, ${name}: train 10,000 decisions ${both(trained)}; score 1,000 stories ${both(scored)}; model ${(json.length / 1e6).toFixed(2)} MB, ${model.vocabulary.features.length} features`);
  }
  for (const [name, options] of CATEGORIZER_ROWS) {
    for (const count of [MAX_CATEGORISED, 10_000]) {
      const trained = time(() => trainCategorizer(all.slice(0, count), options));
      const json = JSON.stringify(trained.value);
      const model = JSON.parse(json) as CategorizerModel;
      const scored = time(() => inbox.map((story) => rankCategories(model, story)));
      out(`categorizer, ${name}: train ${count.toLocaleString("en-US")} published stories in 30 categories ${both(trained)}; suggest for 1,000 stories ${both(scored)}; model ${(json.length / 1e6).toFixed(2)} MB`);
    }
  }
  out();
}

type Split<T> = { decisions: T[]; inbox: T[] };
const split = <T>(items: T[], share = 0.7): Split<T> => {
  const cut = Math.floor(items.length * share);
  return { decisions: items.slice(0, cut), inbox: items.slice(cut) };
};

const skipGrid = process.env.TRIAGE_SKIP_GRID === "1";

const folds = (f: RankingFigures) => f.perFold.map((p) => `${Number.isNaN(p.auc) ? "-" : p.auc.toFixed(3)} (${p.found}/${p.total})`).join(", ");

/** Whether the product's defaults are the chosen settings, key by key over the settings compared. */
function sameAsProduct(before: object, chosen: object, product: object): string[] {
  const settings = { ...before, ...chosen } as Record<string, unknown>;
  return Object.keys(settings)
    .filter((key) => key !== "calibrate" && settings[key] !== (product as Record<string, unknown>)[key])
    .filter((key) => !(key === "blendShare" && settings.algorithm !== "blend"))
    .map((key) => `${key}: chosen ${String(settings[key])}, product ${String((product as Record<string, unknown>)[key])}`);
}

/** Compares ranking settings on the folds inside the decisions and answers the chosen ones. */
function rankingSelection(decisions: RankerDecision[]): void {
  const fold = timeFolds(decisions.length);
  out(`### Ranking, validation (decisions only: ${fold.length} time-ordered folds, training on the older stories, validating on the next ${fold[0]!.validEnd - fold[0]!.validStart})`);
  out("Criterion: the mean of the validation AUC (over each fold's published/rejected pairs) and the share of published stories in each fold's top 10%. Chosen: the best, or within 0.005 of it the one that changes fewest settings.");
  out("| settings | changes | AUC | top 10% | per fold: AUC (found/published) | criterion | train |");
  out("|---|---|---|---|---|---|---|");
  const grid = skipGrid ? RANKING_GRID.slice(0, 1) : RANKING_GRID;
  const rows = grid.map(([label, overrides]) => {
    const figures = validateRanker(decisions, { ...RANKER_BEFORE, ...overrides, calibrate: false }, fold);
    return { label, overrides, figures, changed: changes(RANKER_BEFORE, overrides) };
  });
  const chosen = skipGrid ? null : choose(rows, (r) => rankingCriterion(r.figures), (r) => r.changed, 0.005);
  for (const r of rows) {
    const mark = r === chosen ? "**" : "";
    out(`| ${mark}${r.label}${mark} | ${r.changed} | ${r.figures.auc.toFixed(3)} | ${pct(r.figures.top10)} (${Math.round(r.figures.top10 * r.figures.positives)}/${r.figures.positives}) | ${folds(r.figures)} | ${rankingCriterion(r.figures).toFixed(4)} | ${ms(r.figures.trainMs)} |`);
  }
  const product = validateRanker(decisions, {}, fold);
  const figures = `AUC ${product.auc.toFixed(3)}, top 10% ${pct(product.top10)}, calibrated scores sum to ${product.expected.toFixed(1)} for ${product.positives} published`;
  if (chosen) {
    out(`chosen: ${chosen.label} ${JSON.stringify(chosen.overrides)}`);
    const differences = sameAsProduct(RANKER_BEFORE, chosen.overrides, RANKER_DEFAULTS);
    out(`product defaults: ${differences.length === 0 ? "the chosen settings" : `NOT the chosen settings (${differences.join("; ")})`}; ${figures}`);
  } else {
    out(`(TRIAGE_SKIP_GRID: nothing chosen) product defaults: ${figures}`);
  }
  const before = rows[0]!.figures;
  out(`before, uncalibrated: scores sum to ${before.expected.toFixed(1)} for ${before.positives} published`);
  out();
}

/** Compares category settings on the folds, each trained on the newest stories the product would use. */
function categorySelection(stories: CategorizedStory[]): void {
  const fold = timeFolds(stories.length);
  out(`### Category suggestion, validation (the same folds; each trained on the ${MAX_CATEGORISED.toLocaleString("en-US")} newest stories before its validation part, as the product does)`);
  out("Criterion: stories whose most likely category is theirs. Chosen: the best, or within 0.3 points of it the one that changes fewest settings.");
  out("| settings | changes | right | right among top 3 | train |");
  out("|---|---|---|---|---|");
  const grid = skipGrid ? CATEGORY_GRID.slice(0, 1) : CATEGORY_GRID;
  const rows = grid.map(([label, overrides]) => ({ label, overrides, figures: validateCategorizer(stories, { ...CATEGORIZER_BEFORE, ...overrides }, MAX_CATEGORISED, fold), changed: changes(CATEGORIZER_BEFORE, overrides) }));
  const chosen = skipGrid ? null : choose(rows, (r) => r.figures.right, (r) => r.changed, 0.003);
  const line = (label: string, changed: number | string, f: CategoryFigures) => `| ${label} | ${changed} | ${pct(f.right)} | ${pct(f.top3)} | ${ms(f.trainMs)} |`;
  for (const r of rows) out(line(r === chosen ? `**${r.label}**` : r.label, r.changed, r.figures));
  const product = validateCategorizer(stories, {}, MAX_CATEGORISED, fold);
  if (chosen) {
    out(`chosen: ${chosen.label} ${JSON.stringify(chosen.overrides)}`);
    const differences = sameAsProduct(CATEGORIZER_BEFORE, chosen.overrides, CATEGORIZER_DEFAULTS);
    out(`product defaults: ${differences.length === 0 ? "the chosen settings" : `NOT the chosen settings (${differences.join("; ")})`}`);
  } else {
    out("(TRIAGE_SKIP_GRID: nothing chosen)");
  }
  out("not candidates, for comparison:");
  out(line("product defaults", "-", product));
  out(line("before, trained on every older story", "-", validateCategorizer(stories, CATEGORIZER_BEFORE, null, fold)));
  out(line("product defaults, trained on every older story", "-", validateCategorizer(stories, {}, null, fold)));
  const confidence = (label: string, f: CategoryFigures) =>
    `${label}: ${f.byConfidence.map((c) => `from ${c.threshold}: ${pct(c.suggested)} suggested, ${pct(c.rightWhenSuggested)} of them right`).join("; ")}`;
  out(confidence("by minimum confidence, before", rows[0]!.figures));
  out(confidence("by minimum confidence, product defaults", product));
  out();
}

function rankingReport(label: string, decisions: RankerDecision[], inbox: (TriageText & { positive: boolean })[], reference = "newest first") {
  const positives = inbox.map((s) => s.positive);
  const published = decisions.filter((d) => d.published).length;
  out(`### ${label}`);
  out(`decisions ${decisions.length} (${published} published, ${pct(published / decisions.length)}); inbox ${inbox.length} (${positives.filter(Boolean).length} positive, ${pct(positives.filter(Boolean).length / inbox.length)})`);
  // Newest first: the inbox is in date order, so the later an item, the higher it sits.
  // (Weka's Reuters files are a date split but not dated within it: there it is their file order.)
  const newest = inbox.map((_, i) => i);
  const intervals: string[] = [];
  out(`| order | AUC | positives in top 10% | scores sum to | train |`);
  out(`|---|---|---|---|---|`);
  out(`| ${reference} | ${auc(newest, positives).toFixed(3)} | ${pct(shareInTop(newest, positives, 0.1))} | - | - |`);
  for (const [name, options] of RANKER_ROWS) {
    const trained = time(() => trainRanker(decisions, options));
    const scores = inbox.map((s) => scoreStory(trained.value, s, { reasons: 0 }).score);
    const found = Math.round(shareInTop(scores, positives, 0.1) * positives.filter(Boolean).length);
    out(`| ${name} | ${auc(scores, positives).toFixed(3)} | ${pct(shareInTop(scores, positives, 0.1))} (${found}) | ${scores.reduce((a, b) => a + b, 0).toFixed(1)} | ${ms(trained.ms)} |`);
    intervals.push(`${name}: ${spread(scores, positives)}`);
  }
  out();
  out(`How far these could move by chance (95% percentile bootstrap over the inbox's items, 1,000 resamples): ${intervals.join("; ")}`);
  out();
}

/** The 95% bootstrap intervals of a ranking's AUC and top-10% share over the inbox. */
function spread(scores: number[], positives: boolean[]): string {
  const items = scores.map((score, i) => ({ score, positive: positives[i]!, i }));
  // A resample keeps each item's place in the inbox, so that ties still go newest first.
  const ordered = (sample: typeof items) => [...sample].sort((a, b) => a.i - b.i);
  const [aucLow, aucHigh] = bootstrapInterval(items, (sample) => auc(sample.map((s) => s.score), sample.map((s) => s.positive)));
  const [topLow, topHigh] = bootstrapInterval(items, (sample) => {
    const list = ordered(sample);
    return shareInTop(list.map((s) => s.score), list.map((s) => s.positive), 0.1);
  });
  return `AUC ${aucLow.toFixed(3)}-${aucHigh.toFixed(3)}, top 10% ${pct(topLow)}-${pct(topHigh)}`;
}

function categoryReport(decisions: CategorizedStory[], inbox: CategorizedStory[]) {
  out(`### Category suggestion, inbox`);
  const majority = [...decisions.reduce((m, s) => m.set(s.categorySlug, (m.get(s.categorySlug) ?? 0) + 1), new Map<string, number>())].sort((a, b) => b[1] - a[1])[0]?.[0];
  out(`inbox ${inbox.length}; the most frequent category of the decisions (${majority}) for all: ${pct(inbox.filter((s) => s.categorySlug === majority).length / inbox.length)}`);
  out(`| settings | trained on | categories | right | right among top 3 | train |`);
  out(`|---|---|---|---|---|---|`);
  let product: { model: CategorizerModel; ranked: { truth: string; ranking: { slug: string; confidence: number }[] }[] } | null = null;
  for (const [name, options] of CATEGORIZER_ROWS) {
    for (const window of [decisions.length, MAX_CATEGORISED]) {
      const trained = time(() => trainCategorizer(decisions.slice(-window), options));
      const ranked = inbox.map((s) => ({ truth: s.categorySlug, ranking: rankCategories(trained.value, s) }));
      const right = ranked.filter((r) => r.ranking[0]?.slug === r.truth).length;
      const top3 = ranked.filter((r) => r.ranking.slice(0, 3).some((c) => c.slug === r.truth)).length;
      out(`| ${name} | newest ${window.toLocaleString("en-US")} | ${trained.value.categories.length} | ${pct(right / ranked.length)} | ${pct(top3 / ranked.length)} | ${ms(trained.ms)} |`);
      if (options === CATEGORIZER_ROWS[1]![1] && window === MAX_CATEGORISED) product = { model: trained.value, ranked };
    }
  }
  out();
  if (!product) return;
  const [low, high] = bootstrapInterval(product.ranked, (sample) => sample.filter((r) => r.ranking[0]?.slug === r.truth).length / sample.length);
  out(`How far "right" could move by chance for the product defaults on the newest ${MAX_CATEGORISED.toLocaleString("en-US")} (95% percentile bootstrap, 1,000 resamples): ${pct(low)}-${pct(high)}`);
  out();
  out(`Product defaults trained on the newest ${MAX_CATEGORISED.toLocaleString("en-US")}, by minimum confidence (the product preselects from ${product.model.minConfidence}):`);
  out(`| minimum confidence | suggested | right when suggested | right over all stories |`);
  out(`|---|---|---|---|`);
  for (const threshold of [0, 0.1, 0.2, 0.3, 0.4, 0.5]) {
    const suggested = product.ranked.filter((r) => (r.ranking[0]?.confidence ?? 0) >= threshold);
    const right = suggested.filter((r) => r.ranking[0]?.slug === r.truth).length;
    out(`| ${threshold.toFixed(1)} | ${pct(suggested.length / product.ranked.length)} | ${pct(right / Math.max(1, suggested.length))} | ${pct(right / product.ranked.length)} |`);
  }
  out();
}

function newsCategoryQuality(path: string) {
  const items = loadNewsCategoryDataset(path).filter((item) => item.title.trim() !== "" || item.summary);
  const weird = items.filter((item) => item.category === "WEIRD NEWS").length;
  const categories = new Set(items.map((item) => sectionCategory(item.category))).size;
  out(`## Quality: News Category Dataset (${path})`);
  out(`${items.length} items from ${items[0]?.date} to ${items.at(-1)?.date}, ${weird} WEIRD NEWS (${pct(weird / items.length)}), ${categories} categories after merging renamed sections`);
  out();
  const { decisions, inbox } = split(items);
  const asDecision = (item: LabelledItem): RankerDecision => ({ title: item.title, summary: item.summary, sourceId: null, linkHost: item.linkHost, published: item.category === "WEIRD NEWS" });
  const asStory = (item: LabelledItem): CategorizedStory => ({ title: item.title, summary: item.summary, sourceId: null, linkHost: item.linkHost, categorySlug: sectionCategory(item.category) });
  out(`## Choosing settings on the decisions (the older ${decisions.length}; the inbox is not read)`);
  out();
  rankingSelection(decisions.map(asDecision));
  categorySelection(decisions.map(asStory));
  if (process.env.TRIAGE_VALIDATION_ONLY === "1") return;
  out(`## The inbox (the newer ${inbox.length}), read once: the settings before and the product's`);
  out();
  rankingReport(
    "Ranking: WEIRD NEWS published, everything else rejected",
    decisions.map(asDecision),
    inbox.map((item) => ({ ...asDecision(item), positive: item.category === "WEIRD NEWS" })),
  );
  categoryReport(decisions.map(asStory), inbox.map(asStory));
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
const newsFile = process.env.TRIAGE_NEWS_FILE ?? join(import.meta.dirname, "data", "huffpost-news.tsv");
if (existsSync(newsFile)) newsCategoryQuality(newsFile);
else out(`(no News Category Dataset at ${newsFile}: see bench/data/README.md)`);
const reutersDir = process.env.TRIAGE_REUTERS_DIR;
if (reutersDir && existsSync(reutersDir)) reutersQuality(reutersDir);
else out("(TRIAGE_REUTERS_DIR not set: see bench/data/README.md for Reuters-21578 from Debian's weka package)");
