import { describe, expect, test } from "vitest";
import { orderNote, reasonsText } from "./triage-bar";

const needed = { published: 50, rejected: 50 };

describe("the line above the Pending list", () => {
  test("before the desk has decided enough, it says what the ranking waits for and how far the desk is", () => {
    expect(orderNote({ decisions: { published: 12, rejected: 1_204 }, needed, model: null }, "newest")).toEqual({
      head: "Newest first",
      rest: "the ranking learns what this desk publishes once it has 50 published and 50 rejected stories (so far 12 published and 1,204 rejected).",
    });
  });

  test("with enough decisions and no ranking yet, it does not ask for more: the ranking is on its way", () => {
    const note = orderNote({ decisions: { published: 119, rejected: 901 }, needed, model: null }, "newest");
    expect(note).toEqual({
      head: "Newest first",
      rest: "the ranking has enough decisions to learn from (119 published and 901 rejected) and is trained within a minute, or now with Retrain now.",
    });
  });

  test("with a ranking, what it learned from and when", () => {
    const model = { trainedAt: "2026-11-28T02:00:58.831Z", published: 1_119, rejected: 9_010 };
    expect(orderNote({ decisions: { published: 1_200, rejected: 9_100 }, needed, model }, "likely")).toEqual({
      head: "Most likely first",
      rest: "learned from 1,119 published and 9,010 rejected stories, trained Nov 28, 2026 02:00.",
    });
    expect(orderNote({ decisions: { published: 1_200, rejected: 9_100 }, needed, model }, "newest").head).toBe("Ranking ready");
  });
});

describe("why a story scored as it did", () => {
  test("the features that moved it, grouped by kind in the order of the strongest", () => {
    const reasons = ["word: goat", "words: florida man", "word: mayor", "source: Odd Wire", "site: example.com", "title word: elected", "letters: oat"].map((feature) => ({ feature }));
    expect(reasonsText(reasons)).toBe("the words goat, mayor; the phrase “florida man”; the source Odd Wire; the site example.com; the title word elected; the letters “oat”");
  });

  test("one of a kind reads in the singular; nothing reads as nothing in particular; an unknown name is kept as it is", () => {
    expect(reasonsText([{ feature: "word: goat" }])).toBe("the word goat");
    expect(reasonsText([])).toBe("nothing in particular");
    expect(reasonsText([{ feature: "b:odd" }, { feature: "word: goat" }])).toBe("b:odd; the word goat");
  });
});
