import { describe, expect, test } from "vitest";
import { groupSameStories, type SameStoryInput } from "./same-story";
import { contentTokens, eachWord, hashWord, wordsOf } from "./same-story-text";

const NOON = Date.UTC(2026, 10, 20, 12);
let nextId = 1;
/** A story from source `sourceId` ("Source N" on sN.example), reported `hours` after noon on 20 November. */
function story(sourceId: number | null, title: string, summary: string | null, hours = 0, extra: Partial<SameStoryInput> = {}): SameStoryInput {
  return {
    id: nextId++,
    title,
    summary,
    sourceId,
    sourceName: sourceId === null ? null : `Source ${sourceId}`,
    linkHost: sourceId === null ? null : `s${sourceId}.example`,
    at: new Date(NOON + hours * 3_600_000),
    ...extra,
  };
}

// Background: other news of the same days, so that word frequencies are those of an inbox.
function inbox(): SameStoryInput[] {
  const subjects = ["tortoise", "parrot", "pensioner", "robot", "raccoon", "librarian", "octopus", "pumpkin", "pigeon", "ferret", "astronaut", "gnome"];
  const places = ["Norway", "Tokyo", "Bavaria", "Nebraska", "Lisbon", "Manitoba", "Cornwall", "Sicily", "Iceland", "Tasmania", "Galway", "Bruges"];
  return subjects.flatMap((subject, i) =>
    places.slice(0, 4).map((place, j) =>
      story(
        20 + ((i + j) % 7),
        `${subject} found in ${places[(i + j * 5) % places.length]} ${["garden", "museum", "harbour", "bakery"][j]}`,
        `A ${subject} was seen near a ${["garden", "museum", "harbour", "bakery"][j]} in ${place} on ${["Sunday", "Monday"][j % 2]}, and people gathered to watch it.`,
        -40 + i * 3 + j,
      ),
    ),
  );
}

const ids = (groups: ReturnType<typeof groupSameStories>) => groups.map((g) => [g.groupId, ...g.pending.map((m) => m.id).filter((id) => id !== g.groupId)].sort((a, b) => a - b));

describe("stories that report the same event are grouped", () => {
  test("the same title and summary from two sources: one group, named by its first story", () => {
    const first = story(1, "Town elects goat as honorary mayor", "Residents of Fair Haven, Vermont, voted for Lincoln the goat, who beat a cat and a dog.", 0);
    const copy = story(2, "Town elects goat as honorary mayor", "Residents of Fair Haven, Vermont, voted for Lincoln the goat, who beat a cat and a dog.", 5);
    const groups = groupSameStories([...inbox(), copy, first]);
    expect(ids(groups)).toEqual([[first.id, copy.id]]);
    const [group] = groups;
    expect(group).toMatchObject({ groupId: first.id, published: false, sources: 2 });
    expect(group!.pending.find((m) => m.id === copy.id)!.reason).toBe(`Same title and summary as #${first.id} (Source 1)`);
    expect(group!.pending.find((m) => m.id === first.id)!.reason).toBe(`First of 2 reports of this story, from 2 sources, within a day (also #${copy.id})`);
  });

  test("near-identical wire copy, lightly edited, even from one source under another address", () => {
    const a = story(1, "Swarm of bees delays flight at Boston Logan airport", "A swarm of thousands of bees clung to the wing of a Delta plane at Boston Logan airport, delaying the flight for two hours until a beekeeper arrived.", 0);
    const b = story(1, "Swarm of bees delays flight at Boston Logan airport", "A swarm of thousands of bees clung to the wing of a Delta plane at Boston Logan airport, delaying the flight for two hours until a local beekeeper arrived.", 3);
    const groups = groupSameStories([a, b, ...inbox()]);
    expect(ids(groups)).toEqual([[a.id, b.id]]);
    expect(groups[0]!.pending[1]!.reason).toMatch(new RegExp(`^Nearly the same text \\(\\d+% of its phrases\\) as #${a.id} \\(Source 1\\)$`));
  });

  test("alike titles and summaries from three sources within two days", () => {
    const a = story(1, "Runaway kangaroo hops into Austrian supermarket", "A kangaroo that escaped from a private zoo near Salzburg hopped into a supermarket and was caught among the cereal boxes.", 0);
    const b = story(2, "Escaped kangaroo hops into supermarket in Austria", "Police near Salzburg caught a kangaroo in a supermarket after it escaped from a private zoo, shoppers said.", 20);
    const c = story(3, "Kangaroo escapes zoo, hops into Austrian supermarket", "Shoppers near Salzburg found a kangaroo among cereal boxes after it escaped from a private zoo.", 40);
    const groups = groupSameStories([...inbox(), a, b, c]);
    expect(ids(groups)).toEqual([[a.id, b.id, c.id]]);
    expect(groups[0]!.sources).toBe(3);
    for (const member of groups[0]!.pending.filter((m) => m.id !== a.id)) {
      expect(member.reason).toMatch(new RegExp(`^Titles \\d+% alike, summaries \\d+% alike with #${a.id} \\(Source 1\\), within (a day|2 days)$`));
    }
  });

  test("a pending story that reports what the desk already published names the published story", () => {
    const published = story(5, "Man finds 4,000-year-old axe while walking his dog in Denmark", "A dog walker near Aarhus found a Stone Age axe in a field; the museum says it is about 4,000 years old.", -30);
    const late = story(6, "Dog walker finds 4,000-year-old axe in Denmark field", "Walking his dog near Aarhus, a man found a Stone Age axe in a field that the museum dates to about 4,000 years old.", 0);
    const groups = groupSameStories([...inbox(), late], [published]);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ groupId: published.id, published: true, pending: [{ id: late.id }] });
    expect(groups[0]!.pending[0]!.reason).toMatch(new RegExp(`^Titles \\d+% alike, summaries \\d+% alike, within 2 days: already published as #${published.id} \\(Source 5\\)$`));
  });

  test("a word-for-word copy of a published story says so", () => {
    const published = story(5, "Goat elected mayor of Vermont town", "Lincoln the goat beat a cat and a dog to become honorary mayor of Fair Haven, Vermont.", -50);
    const copy = story(6, "Goat elected mayor of Vermont town", "Lincoln the goat beat a cat and a dog to become honorary mayor of Fair Haven, Vermont.", 0);
    const [group] = groupSameStories([copy], [published]);
    expect(group!.pending[0]!.reason).toBe(`Same title and summary: already published as #${published.id} (Source 5)`);
  });

  test("German and Chinese copies are grouped too", () => {
    const de = story(1, "Ziege zur Bürgermeisterin von Kleinstadt gewählt", "Die Einwohner von Fair Haven wählten die Ziege Lincoln zur Ehrenbürgermeisterin; sie schlug eine Katze und einen Hund.", 0);
    const deCopy = story(2, "Ziege zur Bürgermeisterin von Kleinstadt gewählt", "Die Einwohner von Fair Haven wählten die Ziege Lincoln zur Ehrenbürgermeisterin; sie schlug eine Katze und einen Hund.", 2);
    const zh = story(3, "山羊当选小镇荣誉镇长", "佛蒙特州费尔黑文镇的居民投票选出一只名叫林肯的山羊担任荣誉镇长，它击败了一只猫和一只狗。", 0);
    const zhCopy = story(4, "山羊当选小镇荣誉镇长", "佛蒙特州费尔黑文镇的居民投票选出一只名叫林肯的山羊担任荣誉镇长，它击败了一只猫和一只狗。", 1);
    const zhOther = story(5, "熊猫在动物园过生日", "成都大熊猫基地为一只熊猫举办了生日派对，游客们带来了竹子蛋糕。", 1);
    expect(ids(groupSameStories([de, deCopy, zh, zhCopy, zhOther, ...inbox()]))).toEqual([
      [de.id, deCopy.id],
      [zh.id, zhCopy.id],
    ]);
  });
});

describe("different stories never merge (near misses)", () => {
  test.each([
    {
      name: "one outlet's template headline over different stories",
      stories: () => [
        story(1, "Police: man arrested", "A man was arrested after a fight outside a pub in Leeds on Friday night.", 0),
        story(1, "Police: man arrested", "A man was arrested for stealing a tractor from a farm in Devon.", 3),
        story(1, "Police: man arrested", "A man was arrested at Gatwick airport with a live python in his luggage.", 6),
      ],
    },
    {
      name: "one outlet's daily weather update, word for word but for its numbers",
      stories: () => [
        story(1, "Weather update", "Sunny spells and light winds expected across the region today, with highs of 14C and lows of 6C.", 0),
        story(1, "Weather update", "Sunny spells and light winds expected across the region today, with highs of 15C and lows of 7C.", 24),
      ],
    },
    {
      name: "the same template from two outlets with different numbers",
      stories: () => [
        story(1, "Lottery results", "The winning numbers in Saturday's draw were 4, 8, 15, 16, 23 and 42, with a jackpot of 3 million.", 0),
        story(2, "Lottery results", "The winning numbers in Saturday's draw were 5, 9, 17, 22, 31 and 40, with a jackpot of 2 million.", 1),
      ],
    },
    {
      name: "two different escaped-animal stories on one day",
      stories: () => [
        story(1, "Escaped kangaroo hops into Austrian supermarket", "A kangaroo that escaped from a private zoo near Salzburg was caught among the cereal boxes of a supermarket.", 0),
        story(2, "Escaped emu runs through Australian supermarket", "An emu that escaped from a farm near Perth ran through a supermarket car park before rangers caught it.", 2),
      ],
    },
    {
      name: "alike titles but summaries of different events",
      stories: () => [
        story(1, "Giant pumpkin breaks world record in Germany", "A pumpkin grown by a farmer in Ludwigsburg weighed 1,200 kilograms at the annual festival.", 0),
        story(2, "Giant pumpkin breaks world record in Belgium", "A Belgian grower's pumpkin weighed in at 1,190 kilograms in Ghent, beating his own entry from last year.", 5),
      ],
    },
    {
      name: "the same event told days too far apart for a likeness (not word for word)",
      stories: () => [
        story(1, "Runaway kangaroo hops into Austrian supermarket", "A kangaroo that escaped from a private zoo near Salzburg hopped into a supermarket and was caught among the cereal boxes.", 0),
        story(2, "Escaped kangaroo found in supermarket in Austria", "Police near Salzburg caught a kangaroo in a supermarket after it escaped from a private zoo, shoppers said.", 24 * 6),
      ],
    },
    {
      name: "alike stories from two feeds of one site",
      stories: () => [
        story(1, "Runaway kangaroo hops into Austrian supermarket", "A kangaroo that escaped from a private zoo near Salzburg hopped into a supermarket and was caught among the cereal boxes.", 0, { linkHost: "news.example" }),
        story(2, "Escaped kangaroo found in supermarket in Austria", "Police near Salzburg caught a kangaroo in a supermarket after it escaped from a private zoo, shoppers said.", 3, { linkHost: "news.example" }),
      ],
    },
    {
      name: "short identical headlines with no summary from two sources",
      stories: () => [story(1, "Weather update", null, 0), story(2, "Weather update", null, 1), story(3, "Breaking news", "", 2), story(4, "Breaking news", "", 3)],
    },
  ])("$name", ({ stories }) => {
    expect(groupSameStories([...inbox(), ...stories()])).toEqual([]);
  });

  test("a chain of likenesses does not join stories that do not match the first one", () => {
    // b is like a, c is like b, but c is not like a: c stays out of a's group.
    const a = story(1, "Kangaroo escapes zoo near Salzburg and hops into supermarket", "A kangaroo escaped a private zoo near Salzburg and hopped into a supermarket, where staff caught it.", 0);
    const b = story(2, "Kangaroo escapes zoo near Salzburg and hops into supermarket", "A kangaroo escaped a private zoo near Salzburg and hopped into a supermarket, where staff caught it among cereal boxes.", 1);
    const c = story(3, "Zoo near Salzburg fined after kangaroo escapes into supermarket", "The private zoo near Salzburg whose kangaroo hopped into a supermarket among cereal boxes was fined by the district on Tuesday for poor fencing.", 30);
    const groups = groupSameStories([...inbox(), a, b, c]);
    expect(ids(groups)).toEqual([[a.id, b.id]]);
  });
});

describe("bad input gets a sensible answer", () => {
  test("empty titles and summaries group nothing and throw nothing", () => {
    expect(groupSameStories([story(1, "", null), story(2, "", null), story(3, "   ", ""), story(null, "", "", 0, { linkHost: null })])).toEqual([]);
  });

  test("a 100 KB summary is read by its start, quickly", () => {
    const long = "The council debated the new parking rules for the harbour district at length. ".repeat(1_300);
    expect(long.length).toBeGreaterThan(100_000);
    const started = performance.now();
    const groups = groupSameStories([story(1, "Council debates harbour parking", long), story(2, "Council debates harbour parking", long, 2), ...inbox()]);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(ids(groups)).toHaveLength(1);
  });

  test("nothing pending, nothing published: no groups", () => {
    expect(groupSameStories([], [])).toEqual([]);
  });
});

describe("words as grouping reads them", () => {
  test.each([
    ["Goats' mayor elects ELECTED électeurs escapes", ["goat", "mayor", "elect", "elect", "electeur", "escap"]],
    ["Police: man arrested", ["arrest"]],
    ["熊猫", ["熊猫"]],
  ])("%s", (text, tokens) => {
    expect(contentTokens(wordsOf(text))).toEqual(tokens);
  });
});

describe("plain ASCII text read without a string per word", () => {
  test.each([
    "Police: Man ARRESTED after goat's rock'n'roll party in 2026, 'quoted' words' end",
    "it's 4,000-year-old axe; O'Neill's dogs'",
    "don'",
    "   ",
    "ab'cd'ef'1 x'",
  ])("%j reads as the same words, with the same hashes", (text) => {
    const read: [number, string][] = [];
    eachWord(text, (hash, word) => read.push([hash, word()]));
    expect(read).toEqual(wordsOf(text).map((w) => [hashWord(w), w]));
  });
});
