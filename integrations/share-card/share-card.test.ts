import { imageSize } from "image-size";
import { describe, expect, test } from "vitest";
import { LOGO_SVG } from "~/integrations/images/testing";
import { createShareCards, renderShareCard, shareCardSvg, titleLayout } from "./share-card";

const SITE = "oddwire.example";
const LONG_TITLE = Array(4).fill("Town council spends eleven hours debating whether the giant inflatable duck counts as a boat").join(" ");

type Word = { x: number; y: number; width: number; fontSize: number; text: string };

/** The words of a card as laid out: with embedFont off, satori writes each run as a <text> element. */
async function wordsOf(title: string, category = "Animals"): Promise<Word[]> {
  const svg = await shareCardSvg({ title, category, site: SITE }, { logoSvg: LOGO_SVG, embedFont: false });
  return [...svg.matchAll(/<text x="([\d.]+)" y="([\d.]+)" width="([\d.]+)"[^>]*font-size="([\d.]+)"[^>]*>([^<]*)<\/text>/g)]
    .map(([, x, y, width, fontSize, text]) => ({
      x: Number(x),
      y: Number(y),
      width: Number(width),
      fontSize: Number(fontSize),
      text: text!.replaceAll("&amp;", "&"),
    }))
    .filter((word) => word.text.trim() !== "");
}

/** The title is the card's only text set at a title size (the longest titles get the smallest). */
const TITLE_MIN_SIZE = titleLayout("x".repeat(1000)).fontSize;
const titleWords = (words: Word[]) => words.filter((word) => word.fontSize >= TITLE_MIN_SIZE);
const lineCount = (words: Word[]) => new Set(words.map((word) => word.y)).size;

describe("a share card", () => {
  test("is a 1200x630 PNG", async () => {
    const png = await renderShareCard({ title: "Goat elected mayor of a small Alpine village", category: "Animals", site: SITE }, { logoSvg: LOGO_SVG });
    expect(imageSize(png)).toMatchObject({ type: "png", width: 1200, height: 630 });
    // A drawn card, not an empty canvas.
    expect(png.length).toBeGreaterThan(20_000);
  });

  test("says the story's title, its category as an upper-case badge and the site's name", async () => {
    const title = "Goat elected mayor of a small Alpine village";
    const text = (await wordsOf(title, "Crime & Punishment")).map((word) => word.text).join(" ");
    expect(text).toContain("Goat elected mayor of a small Alpine village");
    expect(text).toContain("CRIME & PUNISHMENT");
    expect(text).toContain(SITE);
    expect(text).toContain("Odd wire");
  });

  test("cuts a long title with an ellipsis after its last line, inside the card", async () => {
    const words = titleWords(await wordsOf(LONG_TITLE));
    expect(lineCount(words)).toBe(titleLayout(LONG_TITLE).lines);
    expect(words.at(-1)?.text).toBe("…");
    for (const word of words) expect(word.x + word.width).toBeLessThanOrEqual(1200 - 56);
  });

  test("breaks a word too long for a line rather than letting it run off the card", async () => {
    const title = `The ${"Pneumonoultramicroscopicsilicovolcanoconiosis".repeat(2)} ward`;
    const words = titleWords(await wordsOf(title));
    expect(lineCount(words)).toBeGreaterThan(1);
    for (const word of words) expect(word.x + word.width).toBeLessThanOrEqual(1200 - 56);
  });

  test("leaves out characters no font draws (emoji, CJK) rather than drawing boxes, and keeps accented Latin, Cyrillic and Greek", async () => {
    const title = "Zoo in Łódź 🦆 gets a Москва 東京 Ελλάδα mascot";
    const text = titleWords(await wordsOf(title))
      .map((word) => word.text)
      .join(" ");
    expect(text).toBe("Zoo in Łódź gets a Москва Ελλάδα mascot");
  });

  test.each([
    ["Goat elected mayor", 84, 3],
    ["Man who tried to pay for a burger with a live lobster is banned", 72, 4],
    ["Man who tried to pay for a burger with a live lobster is banned from the same drive-through again", 60, 4],
    [LONG_TITLE, 54, 5],
  ])("sets %j at %i px on at most %i lines", (title, fontSize, lines) => {
    expect(titleLayout(title)).toEqual({ fontSize, lines });
  });
});

describe("rendered cards", () => {
  test("are rendered once per story and hash, with a strong validator", async () => {
    const cards = createShareCards({ logoSvg: LOGO_SVG });
    const text = { title: "Goat elected mayor", category: "Animals", site: SITE };
    const [first, second] = await Promise.all([cards.card({ storyId: 1, hash: "0000000a", text }), cards.card({ storyId: 1, hash: "0000000a", text })]);
    expect(second).toBe(first);
    expect(first.contentType).toBe("image/png");
    expect(first.etag).toMatch(/^"[\w-]{22}"$/);
    const edited = await cards.card({ storyId: 1, hash: "0000000b", text: { ...text, title: "Goat re-elected mayor" } });
    expect(edited.etag).not.toBe(first.etag);
  });
});
