// A set of realistic stories and the queries readers type to find them, for measuring search:
// recall (did the stories a reader wants come back?) and precision (was the rest noise?).
// Used by domain/public/search-quality.test.ts (the floor) and bench/search-quality.ts (the figures).
//
import type { Db } from "~/db/client";
import { makeCategory, makeStory } from "~/db/testing/factories";
import { searchStories, type PublicDeps } from "~/domain/public/public-site";

// Each story's content is HTML as ingestion stores it, with the markup readers never see (links,
// emphasis, figures), so a query for a tag or attribute name finds nothing it should not.

export type SearchStory = { key: string; title: string; summary: string; content: string };

const p = (...parts: string[]) => parts.map((part) => `<p>${part}</p>`).join("");
const link = (text: string) => `<a href="https://news.example/source" rel="nofollow">${text}</a>`;
const strong = (text: string) => `<strong class="highlight">${text}</strong>`;

export const SEARCH_STORIES: SearchStory[] = [
  { key: "parrot-swears", title: "Parrot swears at fire brigade during rescue", summary: "A grey parrot stuck on a roof greeted its rescuers with a string of insults.", content: p(`The ${strong("parrot")} had escaped from a pet shop.`, `Firefighters ${link("said")} it learned the words from a former owner.`) },
  { key: "parrot-police", title: "Police called to a domestic dispute find a parrot", summary: "Neighbours heard shouting; officers found a bird imitating an argument.", content: p("The parrot repeated the same quarrel for hours.", `${link("Read the report")}.`) },
  { key: "goat-mayor", title: "Goat elected mayor of a small Vermont town", summary: "Lincoln the goat won the honorary post by a landslide.", content: p(`Residents ${strong("voted")} for the goat at the town fair.`, "The goat will attend parades.") },
  { key: "goats-yoga", title: "Goats take over a yoga class", summary: "Baby goats climbed on students during a class in Oregon.", content: p("Organisers say the goats calm people down.") },
  { key: "tromso-reindeer", title: "Reindeer wanders into a Tromsø supermarket", summary: "Shoppers in the Norwegian city of Tromsø filmed a reindeer in the fruit aisle.", content: p("The reindeer left after eating some lettuce.", `${link("Video")} shows it calmly browsing.`) },
  { key: "zurich-cow", title: "Cow stuck on a tram line brings Zürich to a standstill", summary: "Trams in Zürich stopped for an hour while a runaway cow was coaxed away.", content: p("The cow had escaped from a farm outside the city.") },
  { key: "cafe-cats", title: "Café run entirely by cats opens in Lyon", summary: "The cats do not take orders, but the café says they supervise.", content: p("Guests pay a cover charge to sit with the cats.") },
  { key: "sao-paulo-snake", title: "Snake found in a São Paulo washing machine", summary: "A family in São Paulo discovered a python curled in their laundry.", content: p("Animal control removed the snake unharmed.") },
  { key: "malmo-swan", title: "Swan blocks traffic on a Malmö bridge", summary: "A swan in Malmö refused to leave the middle of the bridge.", content: p("Police officers walked the swan to the water.") },
  { key: "ghost-pub", title: "Pub hires a ghost hunter to find its missing barrel", summary: "The landlord blames a ghost for the disappearance of a beer barrel.", content: p(`The ghost hunter ${strong("found")} nothing but a draught.`) },
  { key: "ghosts-castle", title: "Castle advertises for ghosts to haunt its new wing", summary: "A Scottish castle says its ghosts are too old to cover the extension.", content: p("Applicants must be able to rattle chains.") },
  { key: "haunted-doll", title: "Haunted doll returned to museum after visitors complain", summary: "Visitors reported strange noises from the doll's display case.", content: p("The museum says the doll is not haunted, just old.") },
  { key: "pumpkin-boat", title: "Man paddles down a river in a giant pumpkin", summary: "A gardener hollowed out his prize pumpkin and sailed 60 km in it.", content: p("The pumpkin weighed more than 500 kg.") },
  { key: "pumpkins-record", title: "Record pumpkins weighed at the county show", summary: "Growers brought pumpkins heavier than small cars.", content: p("The winning pumpkin broke the national record.") },
  { key: "bees-car", title: "Twenty thousand bees follow a car for two days", summary: "A swarm chased a car through a town because their queen was trapped in the boot.", content: p("A beekeeper released the queen bee and the swarm settled.") },
  { key: "bee-beard", title: "Beekeeper grows a beard of bees for charity", summary: "A beekeeper wore a living beard of bees for an hour.", content: p("He was stung only twice.") },
  { key: "octopus-camera", title: "Octopus steals a diver's camera and films itself", summary: "The octopus grabbed the camera and swam off while recording.", content: p("Divers recovered the camera an hour later.") },
  { key: "squid-giant", title: "Giant squid washes up on a beach in Japan", summary: "A giant squid eight metres long was found alive in a harbour.", content: p("Scientists guided the squid back to sea.") },
  { key: "wedding-llama", title: "Llama gatecrashes a wedding and photobombs the couple", summary: "A llama from a nearby farm joined the wedding photos.", content: p("The couple says the llama made their day.") },
  { key: "weddings-drones", title: "Drone delivers the rings at two weddings in one day", summary: "A drone pilot flew wedding rings to the altar twice in a day.", content: p("Both weddings went off without a hitch.") },
  { key: "toaster-museum", title: "Museum of toasters opens to the public", summary: "Over three hundred toasters are on display in a small museum.", content: p("The oldest toaster dates from 1909.") },
  { key: "cheese-rolling", title: "Cheese rolling race draws record crowds", summary: "Runners chased a wheel of cheese down a steep hill in Gloucestershire.", content: p("The cheese reached speeds of 110 km/h.") },
  { key: "cheese-vault", title: "Thieves steal a tonne of cheese from a vault", summary: "Police are searching for 22,000 pounds of stolen cheddar.", content: p("The cheese was stored in a bank vault.") },
  { key: "robot-vacuum", title: "Robot vacuum escapes the house and is found a mile away", summary: "A robot vacuum cleaner left through an open door and kept cleaning the pavement.", content: p("Its owners tracked it with an app.") },
  { key: "robots-chess", title: "Chess robot grabs a child's finger during a match", summary: "The robot moved too quickly after the boy played his move.", content: p("The child was not badly hurt.") },
  { key: "moose-pool", title: "Moose takes a dip in a family's swimming pool", summary: "A moose cooled off in a backyard pool in Alaska.", content: p("The family watched from the kitchen.") },
  { key: "bear-hot-tub", title: "Bear relaxes in a hot tub in California", summary: "A black bear was filmed lounging in a hot tub.", content: p("The bear stayed for half an hour.") },
  { key: "crocodile-golf", title: "Crocodile strolls across a golf course in Florida", summary: "Golfers paused their game as a crocodile crossed the green.", content: p("The crocodile ignored the golfers.") },
  { key: "alligator-school", title: "Alligator found under a school portable classroom", summary: "A five-foot alligator was removed from beneath a classroom.", content: p("Classes were moved for the day.") },
  { key: "pizza-space", title: "Pizza delivered to the International Space Station", summary: "Astronauts made pizzas with ingredients sent on a supply flight.", content: p("The pizza floated around the station.") },
  { key: "pizzeria-dog", title: "Dog orders pizza by pressing a button", summary: "A dog learned to use a smart speaker to order pizza.", content: p("The pizzeria delivered a plain margherita.") },
  { key: "marathon-costume", title: "Runner finishes a marathon dressed as a fridge", summary: "The runner set a record for the fastest marathon in a fridge costume.", content: p("The costume weighed 40 kg.") },
  { key: "tortoise-escape", title: "Tortoise escapes and is found 30 years later in the attic", summary: "A family's tortoise disappeared in 1982 and turned up in the attic.", content: p("The tortoise survived on termites.") },
  { key: "sheep-dyed", title: "Farmer dyes his sheep orange to stop thieves", summary: "The orange fleece makes the sheep hard to sell on.", content: p("Sheep rustling had been a problem in the valley.") },
  { key: "meteorite-roof", title: "Meteorite crashes through a roof in New Jersey", summary: "A metallic meteorite landed in a family's bedroom.", content: p("Scientists confirmed it came from space.") },
  { key: "lottery-twice", title: "Woman wins the lottery twice with the same numbers", summary: "She played her grandchildren's birthdays for twenty years.", content: p("Both wins came within a year.") },
  { key: "library-book", title: "Library book returned 84 years late", summary: "The overdue book was borrowed in 1940 and returned by the borrower's grandson.", content: p("The library waived the fine.") },
  { key: "snowman-arrest", title: "Police arrest a snowman for blocking a road", summary: "Officers posted a mugshot of a snowman that blocked traffic.", content: p("The snowman was later released.") },
  { key: "emu-chase", title: "Escaped emu leads police on a chase through town", summary: "An emu outran officers for an hour before being caught.", content: p("The emu's owner apologised.") },
  { key: "kangaroo-boxing", title: "Kangaroo spars with a man in a suburban street", summary: "A man filmed himself boxing a kangaroo outside his house.", content: p("Wildlife officers warned people not to approach kangaroos.") },
  { key: "strongman-cow", title: "Strongman carries a cow up a mountain", summary: "The strongman carried the calf up the hill every day until it was grown.", content: p("He says it is a training method.") },
];

/** A query and the stories a reader typing it wants; `suggests` is the correction offered when nothing matches. */
export type SearchCase = { query: string; kind: string; expect: string[]; suggests?: string };

export const SEARCH_QUERIES: SearchCase[] = [
  // Plurals and simple stems
  { query: "parrots", kind: "plural", expect: ["parrot-swears", "parrot-police"] },
  { query: "parrot", kind: "singular", expect: ["parrot-swears", "parrot-police"] },
  { query: "goats", kind: "plural", expect: ["goat-mayor", "goats-yoga"] },
  { query: "ghosts", kind: "plural", expect: ["ghost-pub", "ghosts-castle"] },
  { query: "ghost", kind: "singular", expect: ["ghost-pub", "ghosts-castle"] },
  { query: "pumpkins", kind: "plural", expect: ["pumpkin-boat", "pumpkins-record"] },
  { query: "weddings", kind: "plural", expect: ["wedding-llama", "weddings-drones"] },
  { query: "robots", kind: "plural", expect: ["robot-vacuum", "robots-chess"] },
  { query: "crocodiles", kind: "plural", expect: ["crocodile-golf"] },
  { query: "kangaroos", kind: "plural", expect: ["kangaroo-boxing"] },
  { query: "swans", kind: "plural", expect: ["malmo-swan"] },
  { query: "snakes", kind: "plural", expect: ["sao-paulo-snake"] },
  { query: "tortoises", kind: "plural", expect: ["tortoise-escape"] },
  { query: "meteorites", kind: "plural", expect: ["meteorite-roof"] },
  { query: "toaster", kind: "singular", expect: ["toaster-museum"] },
  { query: "haunting", kind: "stem", expect: ["ghosts-castle", "haunted-doll"] },
  { query: "escaped", kind: "stem", expect: ["parrot-swears", "zurich-cow", "robot-vacuum", "tortoise-escape", "emu-chase"] },
  { query: "delivering pizza", kind: "stem", expect: ["pizza-space", "pizzeria-dog"] },
  // Accents, either way
  { query: "Tromso", kind: "accent", expect: ["tromso-reindeer"] },
  { query: "tromsø", kind: "accent", expect: ["tromso-reindeer"] },
  { query: "Zurich", kind: "accent", expect: ["zurich-cow"] },
  { query: "cafe", kind: "accent", expect: ["cafe-cats"] },
  { query: "Sao Paulo", kind: "accent", expect: ["sao-paulo-snake"] },
  { query: "Malmo", kind: "accent", expect: ["malmo-swan"] },
  { query: "Malmö swan", kind: "accent", expect: ["malmo-swan"] },
  // Several words, quotes
  { query: "goat mayor", kind: "multi-word", expect: ["goat-mayor"] },
  { query: "bear hot tub", kind: "multi-word", expect: ["bear-hot-tub"] },
  { query: "cheese thieves", kind: "multi-word", expect: ["cheese-vault"] },
  { query: "moose pool", kind: "multi-word", expect: ["moose-pool"] },
  { query: "police snowman", kind: "multi-word", expect: ["snowman-arrest"] },
  { query: "giant squid japan", kind: "multi-word", expect: ["squid-giant"] },
  { query: "robot vacuum", kind: "multi-word", expect: ["robot-vacuum"] },
  { query: "\"giant pumpkin\"", kind: "quoted", expect: ["pumpkin-boat"] },
  { query: "\"hot tub\"", kind: "quoted", expect: ["bear-hot-tub"] },
  { query: "\"library book\"", kind: "quoted", expect: ["library-book"] },
  // Rare and common words, substrings
  { query: "emu", kind: "rare", expect: ["emu-chase"] },
  { query: "llama", kind: "rare", expect: ["wedding-llama"] },
  { query: "meteorite", kind: "rare", expect: ["meteorite-roof"] },
  { query: "octopus", kind: "rare", expect: ["octopus-camera"] },
  { query: "lottery", kind: "rare", expect: ["lottery-twice"] },
  { query: "marathon", kind: "rare", expect: ["marathon-costume"] },
  { query: "sheep", kind: "common", expect: ["sheep-dyed"] },
  { query: "cheese", kind: "common", expect: ["cheese-rolling", "cheese-vault"] },
  { query: "pizza", kind: "common", expect: ["pizza-space", "pizzeria-dog"] },
  { query: "bees", kind: "common", expect: ["bees-car", "bee-beard"] },
  { query: "beekeeper", kind: "substring", expect: ["bees-car", "bee-beard"] },
  { query: "alligat", kind: "substring", expect: ["alligator-school"] },
  { query: "Crocodile", kind: "case", expect: ["crocodile-golf"] },
  { query: "REINDEER", kind: "case", expect: ["tromso-reindeer"] },
  // Markup is not text: a tag or attribute name finds only stories whose words contain it
  { query: "href", kind: "markup", expect: [] },
  { query: "nofollow", kind: "markup", expect: [] },
  { query: "highlight", kind: "markup", expect: [] },
  { query: "strong", kind: "markup", expect: ["strongman-cow"] },
  // Typos: nothing matches, and the correction is offered
  { query: "gohst", kind: "typo", expect: [], suggests: "ghost" },
  { query: "parot", kind: "typo", expect: [], suggests: "parrot" },
  { query: "kangaroo boxnig", kind: "typo", expect: [], suggests: "kangaroo boxing" },
  { query: "tortiose", kind: "typo", expect: [], suggests: "tortoise" },
  { query: "metorite", kind: "typo", expect: [], suggests: "meteorite" },
];

/** Recall and precision over a set of cases, from the keys each query returned (and the suggestion offered). */
export function scoreSearch(results: { case: SearchCase; found: string[]; suggestion: string | null }[]) {
  let wanted = 0;
  let wantedFound = 0;
  let returned = 0;
  let returnedWanted = 0;
  let suggestions = 0;
  let suggestionsRight = 0;
  const misses: string[] = [];
  for (const { case: c, found, suggestion } of results) {
    const expected = new Set(c.expect);
    wanted += expected.size;
    returned += found.length;
    const hits = found.filter((key) => expected.has(key)).length;
    wantedFound += hits;
    returnedWanted += hits;
    if (c.suggests !== undefined) {
      suggestions += 1;
      if (suggestion === c.suggests) suggestionsRight += 1;
      else misses.push(`${c.query}: suggested ${JSON.stringify(suggestion)}, wanted ${JSON.stringify(c.suggests)}`);
    }
    const missing = c.expect.filter((key) => !found.includes(key));
    const extra = found.filter((key) => !expected.has(key));
    if (missing.length || extra.length) misses.push(`${c.query}: missing [${missing.join(", ")}] extra [${extra.join(", ")}]`);
  }
  return {
    queries: results.length,
    recall: wanted === 0 ? 1 : wantedFound / wanted,
    precision: returned === 0 ? 1 : returnedWanted / returned,
    suggestions: suggestions === 0 ? 1 : suggestionsRight / suggestions,
    misses,
  };
}

/** Inserts the set's stories, published, and returns each one's key by its id. */
export async function seedSearchStories(db: Db): Promise<Map<number, string>> {
  const category = await makeCategory(db, { name: "Search set", slug: "search-set" });
  const keys = new Map<number, string>();
  for (const story of SEARCH_STORIES) {
    const made = await makeStory(db, { title: story.title, summary: story.summary, content: story.content, categoryId: category.id, originalUrl: `https://news.example/search/${story.key}` });
    keys.set(made.id, story.key);
  }
  return keys;
}

/** Runs every query through the public search (first page) and scores the answers. */
export async function runSearchCases(deps: PublicDeps, keys: Map<number, string>, cases: SearchCase[] = SEARCH_QUERIES) {
  const results = [];
  for (const c of cases) {
    const answer = await searchStories(deps, c.query, 1);
    results.push({ case: c, found: answer.results.items.map((story) => keys.get(story.id) ?? `#${story.id}`), suggestion: answer.didYouMean });
  }
  return scoreSearch(results);
}
