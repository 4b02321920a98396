import { describe, expect, test } from "vitest";
import { canTrainRanker, MIN_DECISIONS, type RankerDecision, type RankerModel, scoreStory, trainRanker } from "./ranker";
import type { TriageText } from "./text-features";

const ODD = ["goat", "llama", "alligator", "haunted", "toilet", "clown", "ufo", "naked"];
const DULL = ["senate", "budget", "minister", "election", "inflation", "treaty", "committee", "tariff"];
const FILLER = ["city", "council", "week", "report", "police", "local", "morning", "people", "family", "year"];

// A desk that publishes stories about odd animals and things and rejects politics; both share filler words.
function decisions(count: number): RankerDecision[] {
  return Array.from({ length: count }, (_, i) => {
    const published = i % 2 === 0;
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

  test("naive Bayes learns the same pattern", () => {
    const bayes = trainRanker(decisions(120), { algorithm: "naive-bayes" });
    expect(bayes.algorithm).toBe("naive-bayes");
    expect(scoreStory(bayes, story("Haunted goat")).score).toBeGreaterThan(scoreStory(bayes, story("Senate budget")).score);
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
