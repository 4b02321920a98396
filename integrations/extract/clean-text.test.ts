import { describe, expect, test } from "vitest";
import { cleanLine, type SiteNames, stripSiteName } from "./clean-text";

const NO_NAMES: SiteNames = { siteName: null, host: null };

describe("stripSiteName", () => {
  test.each<[string, string, SiteNames, boolean, string]>([
    ["the site's name after a bar", "Hedge stays | The Parish Post", { siteName: "The Parish Post", host: null }, false, "Hedge stays"],
    ["the site's name after an em dash", "Hedge stays — The Parish Post", { siteName: "The Parish Post", host: null }, false, "Hedge stays"],
    ["the host name", "Whale hedge wins the vote - ParishPost.co.uk", { siteName: null, host: "www.parishpost.co.uk" }, false, "Whale hedge wins the vote"],
    ["the host without its suffix", "Minecraft exploit crashes servers | Ars Technica", { siteName: null, host: "arstechnica.com" }, false, "Minecraft exploit crashes servers"],
    ["a host in brackets", "LWN.net Weekly Edition for March 26, 2015 [LWN.net]", { siteName: null, host: "lwn.net" }, false, "LWN.net Weekly Edition for March 26, 2015"],
    ["a short name after ::", "Council votes to keep the hedge :: Parish Post", NO_NAMES, true, "Council votes to keep the hedge"],
    ["a short name after a middle dot", "Council votes to keep the hedge · V8", NO_NAMES, true, "Council votes to keep the hedge"],
    ["a short name after a hyphen", "Council votes to keep the hedge - Parish Post", NO_NAMES, true, "Council votes to keep the hedge"],
    ["a section, then the site", "Council votes to keep the whale hedge | News | Parish Post", NO_NAMES, true, "Council votes to keep the whale hedge"],
    ["a phrase is not a name", "Hedge stays - for now", { siteName: "The Parish Post", host: "parishpost.com" }, true, "Hedge stays - for now"],
    ["a question is not a name", "Council votes to keep the hedge - Really?", NO_NAMES, true, "Council votes to keep the hedge - Really?"],
    ["a headline too short to stand alone", "Man bites dog - Again", NO_NAMES, true, "Man bites dog - Again"],
    ["a long suffix without a known name", "On recent events - Bradley M. Kuhn ( Brad ) ( bkuhn )", NO_NAMES, true, "On recent events - Bradley M. Kuhn ( Brad ) ( bkuhn )"],
    ["a name not guessed unless asked", "Council votes to keep the hedge - Parish Post", NO_NAMES, false, "Council votes to keep the hedge - Parish Post"],
    ["a hyphenated word", "Jean-Luc wins the parish vote", { siteName: "Luc wins the parish vote", host: null }, true, "Jean-Luc wins the parish vote"],
    ["a title that is only the site's name", "The Parish Post", { siteName: "The Parish Post", host: null }, true, "The Parish Post"],
    ["a title that is a separator and the site's name", "| The Parish Post", { siteName: "The Parish Post", host: null }, true, "| The Parish Post"],
    ["parentheses that are part of the title", "How to Build a Terrarium (with Pictures) | eHow", { siteName: "eHow", host: null }, false, "How to Build a Terrarium (with Pictures)"],
  ])("%s", (_label, title, names, guess, expected) => {
    expect(stripSiteName(title, names, { guess })).toBe(expected);
  });
});

describe("cleanLine keeps the text as published", () => {
  test.each([
    ["curly quotes and dashes", "It’s “whale” season — again – maybe", "It’s “whale” season — again – maybe"],
    ["letters beyond ASCII", "Grüße aus Ærø: é ø ß 日本", "Grüße aus Ærø: é ø ß 日本"],
    ["entities for them", "It&rsquo;s &ldquo;whale&rdquo; season &mdash; &eacute;&oslash;&szlig; &#26085;&#26412;", "It’s “whale” season — éøß 日本"],
  ])("%s", (_label, input, expected) => {
    expect(cleanLine(input)).toBe(expected);
  });
});
