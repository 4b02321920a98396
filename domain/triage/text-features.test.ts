import { describe, expect, test } from "vitest";
import {
  buildVocabulary,
  DEFAULT_FEATURE_OPTIONS,
  describeFeature,
  extractFeatures,
  featureOptionsFromJson,
  type FeatureOptions,
  hostOf,
  letterSequences,
  tokenize,
  vectorize,
} from "./text-features";

describe("tokenize", () => {
  test.each([
    ["lowercases and drops stop words", "The Goat And The Llama", ["goat", "llama"]],
    ["folds English plurals", "Goats, llamas and stories", ["goat", "llama", "story"]],
    ["decodes HTML entities", "Goats &amp; llamas &#8212; caf&eacute;", ["goat", "llama", "café"]],
    ["drops tags", "<p>Naked <b>mole</b> rat</p>", ["naked", "mole", "rat"]],
    ["drops the possessive", "The dog's dinner", ["dog", "dinner"]],
    ["keeps years, drops other numbers", "In 1987 about 12 goats", ["1987", "goat"]],
    ["reads letters of any alphabet", "Zürich: Москва встречает", ["zürich", "москва", "встречает"]],
    ["reads unspaced scripts as character pairs", "山羊逃跑", ["山羊", "羊逃", "逃跑"]],
  ])("%s", (_name, text, expected) => {
    expect(tokenize(text)).toEqual(expected);
  });

  test("an empty or missing text has no words", () => {
    expect(tokenize("")).toEqual([]);
    expect(tokenize(null)).toEqual([]);
    expect(tokenize(undefined)).toEqual([]);
    expect(tokenize("   ,.;  ")).toEqual([]);
  });

  test("only the start of a 100 KB summary is read", () => {
    const huge = "goat ".repeat(20_000) + "llama";
    expect(huge.length).toBeGreaterThan(100_000);
    const tokens = tokenize(huge);
    expect(tokens.length).toBeLessThanOrEqual(3_000 / 5 + 1);
    expect(tokens).not.toContain("llama");
  });
});

describe("hostOf", () => {
  test.each([
    ["https://www.Example.com/a/b?c=d", "example.com"],
    ["news.example.org", "news.example.org"],
    ["", null],
    [null, null],
    ["not a url at all", null],
  ])("%s gives %s", (link, host) => {
    expect(hostOf(link)).toBe(host);
  });
});

describe("extractFeatures", () => {
  test("counts words of title and summary, title word pairs, the source and the site", () => {
    const counts = extractFeatures({ title: "Florida man wrestles alligator", summary: "An alligator in a pool", sourceId: 12, linkHost: "www.example.com" });
    expect(counts.get("w:alligator")).toBe(2);
    expect(counts.get("p:florida man")).toBe(1);
    expect(counts.get("p:wrestle alligator")).toBe(1);
    expect(counts.get("s:12")).toBe(1);
    expect(counts.get("h:example.com")).toBe(1);
  });

  test("without pairs or plural folding when asked, and with nothing from nothing", () => {
    expect([...extractFeatures({ title: "Florida goats", summary: null, sourceId: null, linkHost: null }, { ...DEFAULT_FEATURE_OPTIONS, titlePairs: false, stemming: true }).keys()]).toEqual([
      "w:florida",
      "w:goat",
    ]);
    expect([...extractFeatures({ title: "Florida goats", summary: null, sourceId: null, linkHost: null }, { ...DEFAULT_FEATURE_OPTIONS, titlePairs: false, stemming: false }).keys()]).toEqual([
      "w:florida",
      "w:goats",
    ]);
    expect(extractFeatures({ title: "", summary: null, sourceId: null, linkHost: null }).size).toBe(0);
  });
});

describe("extractFeatures, the options chosen between on validation", () => {
  const story = { title: "Goat eats hat", summary: "The goat ate a red hat", sourceId: null, linkHost: null };
  const features = (options: Partial<FeatureOptions>) => Object.fromEntries(extractFeatures(story, { ...DEFAULT_FEATURE_OPTIONS, titlePairs: false, ...options }));

  test.each([
    ["shared: a title word and a summary word are one feature", "shared", { "w:goat": 2, "w:eat": 1, "w:hat": 2, "w:ate": 1, "w:red": 1 }],
    [
      "also: title words count again as their own feature",
      "also",
      { "w:goat": 2, "w:eat": 1, "w:hat": 2, "w:ate": 1, "w:red": 1, "t:goat": 1, "t:eat": 1, "t:hat": 1 },
    ],
    ["apart: title words only as their own feature", "apart", { "t:goat": 1, "t:eat": 1, "t:hat": 1, "w:goat": 1, "w:hat": 1, "w:ate": 1, "w:red": 1 }],
  ] as const)("%s", (_name, titleWords, expected) => {
    expect(features({ titleWords })).toEqual(expected);
  });

  test("summary word pairs", () => {
    expect(features({ summaryPairs: true })).toMatchObject({ "q:goat ate": 1, "q:ate red": 1, "q:red hat": 1 });
    expect(Object.keys(features({})).some((name) => name.startsWith("q:"))).toBe(false);
  });

  test("letters of the title's words, read before plurals are folded", () => {
    const letters = [...extractFeatures({ title: "Goats", summary: "hat", sourceId: null, linkHost: null }, { ...DEFAULT_FEATURE_OPTIONS, titleLetters: true }).keys()]
      .filter((name) => name.startsWith("c:"))
      .sort();
    expect(letters).toEqual(letterSequences("goats").map((l) => `c:${l}`).sort());
    expect(letters).toContain("c:ats>");
  });
});

describe("letterSequences", () => {
  test.each([
    ["goat", ["<go", "goa", "oat", "at>", "<goa", "goat", "oat>", "<goat", "goat>"]],
    ["ox", ["<ox", "ox>", "<ox>"]],
    ["山羊", ["<山羊", "山羊>", "<山羊>"]],
  ])("%s", (word, expected) => {
    expect(letterSequences(word)).toEqual(expected);
  });
});

describe("featureOptionsFromJson", () => {
  test("a model stored before the newer options reads them as they were then", () => {
    expect(featureOptionsFromJson({ titlePairs: false, stemming: true })).toEqual({
      titlePairs: false,
      stemming: true,
      titleWords: "shared",
      summaryPairs: false,
      titleLetters: false,
      tf: "sublinear",
      l2: true,
    });
  });

  test("values it does not know are read as the old ones", () => {
    const damaged = { titleWords: "sideways", tf: 3, l2: "yes" } as unknown as Partial<FeatureOptions>;
    expect(featureOptionsFromJson(damaged)).toEqual(featureOptionsFromJson(null));
  });
});

describe("vectorize", () => {
  const vocabulary = buildVocabulary([extractFeatures({ title: "goat goat goat goat llama", summary: null, sourceId: null, linkHost: null })], { minDf: 1, maxFeatures: 10 });
  const counts = extractFeatures({ title: "goat goat goat goat llama", summary: null, sourceId: null, linkHost: null }, { ...DEFAULT_FEATURE_OPTIONS, titlePairs: false });
  const valueOf = (weighting: Pick<FeatureOptions, "tf" | "l2">, name: string) => {
    const vector = vectorize(counts, vocabulary, weighting);
    return vector.values[[...vector.indices].indexOf(vocabulary.index.get(name)!)]!;
  };

  test.each([
    ["sublinear", 1 + Math.log(4)],
    ["raw", 4],
    ["binary", 1],
  ] as const)("%s tf weighs a word seen 4 times against one seen once", (tf, ratio) => {
    expect(valueOf({ tf, l2: false }, "w:goat") / valueOf({ tf, l2: false }, "w:llama")).toBeCloseTo(ratio, 10);
  });

  test("without the L2 norm the values are tf times idf", () => {
    expect(valueOf({ tf: "raw", l2: false }, "w:goat")).toBeCloseTo(4 * vocabulary.idf[vocabulary.index.get("w:goat")!]!, 10);
  });


  test("gives unit-length tf-idf vectors over the vocabulary, ignoring unknown features", () => {
    const docs = [
      extractFeatures({ title: "goat goat llama", summary: null, sourceId: 1, linkHost: null }),
      extractFeatures({ title: "goat senate", summary: null, sourceId: 1, linkHost: null }),
      extractFeatures({ title: "senate budget", summary: null, sourceId: 2, linkHost: null }),
    ];
    const vocabulary = buildVocabulary(docs, { minDf: 1, maxFeatures: 100 });
    const vector = vectorize(extractFeatures({ title: "goat goat unknownword", summary: null, sourceId: 1, linkHost: null }), vocabulary);
    const norm = Math.sqrt(vector.values.reduce((s, v) => s + v * v, 0));
    expect(norm).toBeCloseTo(1, 10);
    expect([...vector.indices].map((i) => vocabulary.features[i])).toEqual(expect.arrayContaining(["w:goat", "s:1", "p:goat goat"]));
    expect([...vector.indices].map((i) => vocabulary.features[i])).not.toContain("w:unknownword");
  });

  test("the vocabulary keeps the most frequent features up to its cap", () => {
    const docs = [
      extractFeatures({ title: "goat llama", summary: null, sourceId: null, linkHost: null }),
      extractFeatures({ title: "goat senate", summary: null, sourceId: null, linkHost: null }),
    ];
    expect(buildVocabulary(docs, { minDf: 2, maxFeatures: 100 }).features).toEqual(["w:goat"]);
    expect(buildVocabulary(docs, { minDf: 1, maxFeatures: 1 }).features).toEqual(["w:goat"]);
  });
});

test.each([
  ["w:goat", "word: goat"],
  ["t:goat", "title word: goat"],
  ["p:florida man", "words: florida man"],
  ["q:pet goat", "words: pet goat"],
  ["c:<goa", "letters: goa"],
  ["s:12", "source: 12"],
  ["h:example.com", "site: example.com"],
])("%s reads as %s", (name, words) => {
  expect(describeFeature(name)).toBe(words);
});
