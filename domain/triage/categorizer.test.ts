import { describe, expect, test } from "vitest";
import {
  type CategorizerAlgorithm,
  type CategorizedStory,
  type CategorizerModel,
  MIN_STORIES_PER_CATEGORY,
  rankCategories,
  suggestCategory,
  trainCategorizer,
} from "./categorizer";
import type { TriageText } from "./text-features";

const WORDS: Record<string, string[]> = {
  animals: ["goat", "llama", "alligator", "parrot", "raccoon", "python"],
  crime: ["burglar", "arrested", "police", "stolen", "heist", "jail"],
  food: ["pizza", "burger", "cheese", "recipe", "sandwich", "chef"],
};

function published(perCategory: number): CategorizedStory[] {
  return Object.entries(WORDS).flatMap(([slug, words]) =>
    Array.from({ length: perCategory }, (_, i) => ({
      title: `${words[i % words.length]} ${words[(i + 2) % words.length]} surprises town`,
      summary: `A ${words[(i + 4) % words.length]} story`,
      sourceId: null,
      linkHost: null,
      categorySlug: slug,
    })),
  );
}

const story = (title: string): TriageText => ({ title, summary: null, sourceId: null, linkHost: null });

describe("trainCategorizer and suggestCategory", () => {
  const model = trainCategorizer(published(8));

  test.each([
    ["Llama and parrot escape", "animals"],
    ["Burglar arrested after heist", "crime"],
    ["Chef makes giant pizza", "food"],
  ])("suggests the category a story's words belong to: %s", (title, slug) => {
    const suggestion = suggestCategory(model, story(title));
    expect(suggestion?.slug).toBe(slug);
    expect(suggestion!.confidence).toBeGreaterThan(0.4);
    expect(suggestion!.confidence).toBeLessThanOrEqual(1);
  });

  test("ranks every known category with probabilities that add up to one", () => {
    const ranking = rankCategories(model, story("Goat steals pizza"));
    expect(ranking.map((r) => r.slug).sort()).toEqual(["animals", "crime", "food"]);
    expect(ranking.reduce((s, r) => s + r.confidence, 0)).toBeCloseTo(1, 10);
  });

  test("suggests nothing when it is not sure enough", () => {
    // Words it has never seen leave all three categories about equally likely.
    expect(suggestCategory(model, story("Quarterly semiconductor outlook"))).toBeNull();
  });

  test("training is deterministic and the model survives a JSON round trip", () => {
    expect(JSON.stringify(trainCategorizer(published(8)))).toBe(JSON.stringify(model));
    const stored = JSON.parse(JSON.stringify(model)) as CategorizerModel;
    expect(suggestCategory(stored, story("Llama and parrot escape"))).toEqual(suggestCategory(model, story("Llama and parrot escape")));
  });

  test.each<CategorizerAlgorithm>(["softmax", "one-vs-rest", "complement-nb", "blend"])("%s suggests the category a story's words belong to", (algorithm) => {
    const other = trainCategorizer(published(8), { algorithm });
    expect(suggestCategory(other, story("Llama and parrot escape"))?.slug).toBe("animals");
    expect(suggestCategory(other, story("Burglar arrested after heist"))?.slug).toBe("crime");
    expect(rankCategories(other, story("Chef makes giant pizza"))[0]?.slug).toBe("food");
  });

  test("complement naive Bayes' weights of a feature add up to nothing over the categories", () => {
    // Uncentred, every weight would be large and positive, and the cap on stored weights would keep
    // the rarest features rather than those that tell categories apart.
    const model = trainCategorizer(published(8), { algorithm: "complement-nb" });
    const sums = new Map<number, number>();
    for (const category of model.categories) category.indices.forEach((j, t) => sums.set(j, (sums.get(j) ?? 0) + category.weights[t]!));
    expect(sums.size).toBeGreaterThan(0);
    for (const sum of sums.values()) expect(Math.abs(sum)).toBeLessThan(1e-3);
  });

  test("the stored model keeps at most the strongest weights per category", () => {
    const small = trainCategorizer(published(8), { maxWeightsPerCategory: 5 });
    for (const category of small.categories) expect(category.indices.length).toBeLessThanOrEqual(5);
    expect(suggestCategory(small, story("Llama and parrot escape"))?.slug).toBe("animals");
  });
});

describe("categories without enough stories are never suggested", () => {
  test("a category with one story is left out, even for a copy of that story", () => {
    const lonely = { title: "Zeppelin zeppelin zeppelin", summary: null, sourceId: null, linkHost: null, categorySlug: "airships" };
    const model = trainCategorizer([...published(6), lonely]);
    expect(model.categories.map((c) => c.slug)).not.toContain("airships");
    expect(suggestCategory(model, story("Zeppelin zeppelin zeppelin"))?.slug).not.toBe("airships");
  });

  test(`no category with ${MIN_STORIES_PER_CATEGORY} stories: no suggestion at all`, () => {
    const model = trainCategorizer(published(MIN_STORIES_PER_CATEGORY - 1));
    expect(model.categories).toEqual([]);
    expect(suggestCategory(model, story("Llama and parrot escape"))).toBeNull();
  });

  test("one category with enough stories: it is the suggestion", () => {
    const model = trainCategorizer(published(4).filter((s) => s.categorySlug === "food"));
    expect(suggestCategory(model, story("Anything at all"))).toEqual({ slug: "food", confidence: 1 });
  });
});

describe("bad input gives sensible answers and never throws", () => {
  test("no published stories", () => {
    expect(suggestCategory(trainCategorizer([]), story("Goat"))).toBeNull();
  });

  test("empty titles, missing slugs and non-English text", () => {
    const model = trainCategorizer([
      ...published(5),
      { title: "", summary: null, sourceId: null, linkHost: null, categorySlug: "animals" },
      { title: "Коза сбежала", summary: null, sourceId: null, linkHost: null, categorySlug: "" },
    ]);
    expect(model.categories.map((c) => c.slug)).toEqual(["animals", "crime", "food"]);
    for (const s of [story(""), story("Коза сбежала"), { title: null, summary: "x".repeat(100_000), sourceId: null, linkHost: null }]) {
      const suggestion = suggestCategory(model, s);
      expect(suggestion === null || model.categories.some((c) => c.slug === suggestion.slug)).toBe(true);
    }
  });

  test("a damaged stored model suggests nothing", () => {
    for (const damaged of [{}, { categories: "x" }, null]) {
      expect(suggestCategory(damaged as unknown as CategorizerModel, story("Goat"))).toBeNull();
    }
  });
});
