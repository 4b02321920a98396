import { describe, expect, test } from "vitest";
import { canTrainRanker, fitPlatt, MIN_DECISIONS, type RankerAlgorithm, type RankerDecision, type RankerModel, scoreStory, trainRanker } from "./ranker";
import { DEFAULT_FEATURE_OPTIONS, type TriageText } from "./text-features";

const ODD = ["goat", "llama", "alligator", "haunted", "toilet", "clown", "ufo", "naked"];
const DULL = ["senate", "budget", "minister", "election", "inflation", "treaty", "committee", "tariff"];
const FILLER = ["city", "council", "week", "report", "police", "local", "morning", "people", "family", "year"];

// A desk that publishes stories about odd animals and things and rejects politics; both share filler words.
// It publishes one story in `every`.
function decisions(count: number, every = 2): RankerDecision[] {
  return Array.from({ length: count }, (_, i) => {
    const published = i % every === 0;
    const words = published ? ODD : DULL;
    const pick = (list: string[], k: number) => list[(i * 7 + k * 3) % list.length]!;
    return {
      title: `${pick(words, 1)} ${pick(FILLER, 2)} ${pick(words, 3)} ${pick(FILLER, 4)}`,
      summary: `${pick(FILLER, 5)} ${pick(words, 6)} ${pick(FILLER, 7)} ${pick(FILLER, 8)}`,
      sourceId: published ? 12 : 3,
      linkHost: published ? "oddities.example" : "politics.example",
      published,
    };
  });
}

const story = (title: string, extra: Partial<TriageText> = {}): TriageText => ({ title, summary: null, sourceId: null, linkHost: null, ...extra });

describe("trainRanker and scoreStory", () => {
  const model = trainRanker(decisions(120));

  test("learns an obvious pattern: odd stories score high, politics low", () => {
    const odd = scoreStory(model, story("Haunted goat spotted at council meeting"));
    const dull = scoreStory(model, story("Senate committee passes budget"));
    expect(odd.score).toBeGreaterThan(0.8);
    expect(dull.score).toBeLessThan(0.2);
  });

  test("the source and the site count as well as the words", () => {
    const fromOddSource = scoreStory(model, story("City council report", { sourceId: 12, linkHost: "https://oddities.example/x" }));
    const fromDullSource = scoreStory(model, story("City council report", { sourceId: 3, linkHost: "https://politics.example/x" }));
    expect(fromOddSource.score).toBeGreaterThan(fromDullSource.score);
    expect(fromOddSource.reasons.map((r) => r.feature)).toEqual(expect.arrayContaining(["source: 12", "site: oddities.example"]));
  });

  test("reasons name the words that raised and lowered the score, strongest first", () => {
    const { reasons } = scoreStory(model, story("Goat elected to senate"));
    const goat = reasons.find((r) => r.feature === "word: goat");
    const senate = reasons.find((r) => r.feature === "word: senate");
    expect(goat?.weight).toBeGreaterThan(0);
    expect(senate?.weight).toBeLessThan(0);
    const magnitudes = reasons.map((r) => Math.abs(r.weight));
    expect(magnitudes).toEqual([...magnitudes].sort((a, b) => b - a));
    expect(scoreStory(model, story("Goat elected to senate"), { reasons: 1 }).reasons).toHaveLength(1);
  });

  test("scores are between 0 and 1 whatever the story", () => {
    for (const s of [story("Goat"), story(""), story("Senate senate senate senate"), story("Совсем другой язык"), story("山羊逃跑了")]) {
      const { score } = scoreStory(model, s);
      expect(score).toBeGreaterThanOrEqual(0);
      expect(score).toBeLessThanOrEqual(1);
    }
  });

  test("training is deterministic", () => {
    expect(JSON.stringify(trainRanker(decisions(120)))).toBe(JSON.stringify(model));
  });

  test("the model survives a JSON round trip (a jsonb column) with the same scores", () => {
    const stored = JSON.parse(JSON.stringify(model)) as RankerModel;
    const s = story("Haunted goat elected to senate", { sourceId: 12 });
    expect(scoreStory(stored, s)).toEqual(scoreStory(model, s));
  });

  test("the stored model stays within its feature cap", () => {
    const capped = trainRanker(decisions(120), { maxFeatures: 10 });
    expect(capped.vocabulary.features).toHaveLength(10);
    expect(capped.weights).toHaveLength(10);
  });

  test.each<RankerAlgorithm>(["naive-bayes", "nb-logistic", "blend"])("%s learns the same pattern", (algorithm) => {
    const other = trainRanker(decisions(120), { algorithm });
    expect(other.algorithm).toBe(algorithm);
    expect(scoreStory(other, story("Haunted goat")).score).toBeGreaterThan(scoreStory(other, story("Senate budget")).score);
    expect(scoreStory(other, story("Haunted goat")).reasons[0]?.weight).toBeGreaterThan(0);
  });

  test("a model stored before the newer feature options scores as it did", () => {
    const old = trainRanker(decisions(120), { ...DEFAULT_FEATURE_OPTIONS, calibrate: false });
    const stored = JSON.parse(JSON.stringify({ ...old, featureOptions: { titlePairs: true, stemming: true } })) as RankerModel;
    const s = story("Haunted goat at the senate", { summary: "A clown and a budget" });
    expect(scoreStory(stored, s)).toEqual(scoreStory(old, s));
  });
});

describe("calibrated scores", () => {
  // One story in ten published.
  const rare = decisions(600, 10);
  const mean = (model: RankerModel) => rare.reduce((sum, d) => sum + scoreStory(model, d).score, 0) / rare.length;

  test("average the desk's publish rate over its decisions, where class weights and a strong penalty alone put them well above it", () => {
    expect(mean(trainRanker(rare, { c: 0.1 }))).toBeCloseTo(0.1, 2);
    expect(mean(trainRanker(rare, { c: 0.1, calibrate: false }))).toBeGreaterThan(0.2);
    expect(mean(trainRanker(rare, { c: 10 }))).toBeCloseTo(0.1, 2);
  });

  test("keep the order of stories", () => {
    const stories = ["Haunted goat", "Senate budget", "Clown at the council", "Minister and the llama", "City report", "Naked ufo treaty"].map((t) => story(t));
    const order = (model: RankerModel) => stories.map((s, i) => ({ i, score: scoreStory(model, s).score })).sort((a, b) => b.score - a.score).map(({ i }) => i);
    expect(order(trainRanker(rare, { c: 0.1 }))).toEqual(order(trainRanker(rare, { c: 0.1, calibrate: false })));
  });
});

describe("fitPlatt", () => {
  test.each([
    ["higher scores, more often published: a positive slope", [0, 1, 2, 3, 4, 5], [false, false, true, false, true, true]],
    ["scores that tell apart perfectly still give a finite fit", [-2, -1, 1, 2], [false, false, true, true]],
  ])("%s", (_name, scores, outcomes) => {
    const { slope, intercept } = fitPlatt(scores, outcomes);
    expect(slope).toBeGreaterThan(0);
    expect(Number.isFinite(slope) && Number.isFinite(intercept)).toBe(true);
  });

  test("scores that say nothing give everyone the (smoothed) rate of publication", () => {
    const outcomes = [true, false, false, false, false, false, false, false];
    const { slope, intercept } = fitPlatt(outcomes.map(() => 3), outcomes);
    const p = 1 / (1 + Math.exp(-(slope * 3 + intercept)));
    // Platt's targets: (1 + 1) / (1 + 2) for the one published, 1 / (7 + 2) for the others.
    expect(p).toBeCloseTo((2 / 3 + 7 / 9) / 8, 6);
  });

  test("nothing to fit: the identity", () => {
    expect(fitPlatt([], [])).toEqual({ slope: 1, intercept: 0 });
  });
});

describe("bad input gives sensible answers and never throws", () => {
  test("no decisions: every story gets the same middling score and no reasons", () => {
    const model = trainRanker([]);
    expect(model.trainedOn).toEqual({ published: 0, rejected: 0 });
    expect(scoreStory(model, story("Goat"))).toEqual({ score: 0.5, reasons: [] });
  });

  test("decisions of one kind: a constant score, below the middle when all were rejected", () => {
    const allRejected = trainRanker(decisions(40).map((d) => ({ ...d, published: false })));
    const a = scoreStory(allRejected, story("Goat"));
    const b = scoreStory(allRejected, story("Senate"));
    expect(a.score).toBe(b.score);
    expect(a.score).toBeLessThan(0.5);
    expect(a.reasons).toEqual([]);
  });

  test("empty titles, missing summaries and strange sources", () => {
    const model = trainRanker([
      ...decisions(20),
      { title: "", summary: null, sourceId: null, linkHost: null, published: false },
      { title: "", summary: "", sourceId: Number.NaN, linkHost: "::not a host::", published: true },
    ]);
    const { score } = scoreStory(model, { title: "", summary: null, sourceId: null, linkHost: "" });
    expect(Number.isFinite(score)).toBe(true);
  });

  test("non-English decisions are learned like any other", () => {
    const russian = Array.from({ length: 20 }, (_, i) => ({
      title: i % 2 === 0 ? `Коза сбежала из зоопарка ${i}` : `Парламент принял бюджет ${i}`,
      summary: null,
      sourceId: null,
      linkHost: null,
      published: i % 2 === 0,
    }));
    const model = trainRanker(russian);
    expect(scoreStory(model, story("Коза на крыше")).score).toBeGreaterThan(scoreStory(model, story("Бюджет парламента")).score);
  });

  test("a 100 KB summary is scored from its start", () => {
    const model = trainRanker(decisions(60));
    const huge = "Goat ".repeat(20_000) + "senate ".repeat(10_000);
    const { score, reasons } = scoreStory(model, story("Report", { summary: huge }));
    expect(score).toBeGreaterThan(0.5);
    expect(reasons.map((r) => r.feature)).not.toContain("word: senate");
  });

  test("a damaged stored model scores without throwing", () => {
    for (const damaged of [{}, { weights: "x", vocabulary: null, bias: "y" }, null]) {
      const { score, reasons } = scoreStory(damaged as unknown as RankerModel, story("Goat"));
      expect(score).toBe(0.5);
      expect(reasons).toEqual([]);
    }
  });
});

test.each([
  [{ published: 50, rejected: 50 }, true],
  [{ published: 49, rejected: 500 }, false],
  [{ published: 500, rejected: 49 }, false],
  [{ published: 0, rejected: 0 }, false],
])("canTrainRanker(%o) is %s", (counts, expected) => {
  expect(MIN_DECISIONS).toEqual({ published: 50, rejected: 50 });
  expect(canTrainRanker(counts)).toBe(expected);
});
