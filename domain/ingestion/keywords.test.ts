import { describe, expect, test } from "vitest";
import { applyKeywords } from "./keywords";

const item = { title: "Goat elected Mayor of a small town", summary: "The llama came second." };

describe("keyword filter", () => {
  test.each([
    { include: [], exclude: [], keep: true, why: "no keywords keeps everything" },
    { include: ["goat"], exclude: [], keep: true, why: "an include keyword in the title" },
    { include: ["LLAMA"], exclude: [], keep: true, why: "an include keyword in the summary, any case" },
    { include: ["cat", "mayor"], exclude: [], keep: true, why: "one of several include keywords is enough" },
    { include: ["cat", "dog"], exclude: [], keep: false, why: "include keywords set and none matches" },
    { include: [], exclude: ["llama"], keep: false, why: "an exclude keyword in the summary" },
    { include: ["goat"], exclude: ["town"], keep: false, why: "exclude wins over include" },
    { include: ["  goat  "], exclude: ["   "], keep: true, why: "keywords are trimmed; blank ones are ignored" },
    { include: ["", " "], exclude: [], keep: true, why: "only blank include keywords count as none" },
    { include: ["elected mayor"], exclude: [], keep: true, why: "a phrase matches as a substring" },
  ])("$why", ({ include, exclude, keep }) => {
    expect(applyKeywords(item, { include, exclude }).keep).toBe(keep);
  });

  test("an item without title or summary is kept only when no include keyword is set", () => {
    expect(applyKeywords({ title: null, summary: null }, { include: [], exclude: ["x"] }).keep).toBe(true);
    expect(applyKeywords({ title: null, summary: null }, { include: ["x"], exclude: [] }).keep).toBe(false);
  });

  test("a dropped item says why", () => {
    expect(applyKeywords(item, { include: [], exclude: ["Llama"] })).toEqual({ keep: false, reason: 'excluded by keyword "llama"' });
  });
});
