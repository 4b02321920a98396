/**
 * robots.txt conformance: google/robotstxt's allow/deny cases and crawler-commons' robots files, read
 * in place from ../shared/corpora, plus RFC 9309's own examples. Results in docs/crawl-conformance.md.
 */
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { corpusPath } from "~/test/corpora";
import { ALLOW_ALL, DISALLOW_ALL, parseRobots, ROBOTS_MAX_BYTES, robotsUrlFor } from "./robots";

type GoogleCase = { test: string; robotstxt: string; useragent: string; url: string; allowed: boolean };

// Where we deliberately differ from Google's parser, with why. Each is still run below, asserting our answer.
const GOOGLE_OUT_OF_SCOPE: { [index: number]: string } = {
  40: "Google compares the caller's whole string 'Foo Bar'; we take the product token of a User-Agent header, 'Foo'",
  63: "Google expects the caller to percent-encode the URL; we parse it, so /foo/bar/ツ is /foo/bar/%E3%83%84 (RFC 9309 2.2.2)",
  65: "Google expects the caller to percent-encode the URL; we parse it, so /foo/bar/ツ is /foo/bar/%E3%83%84 (RFC 9309 2.2.2)",
  66: "RFC 9309 2.2.2's table matches a rule /foo/bar/%62%61%7A to /foo/bar/baz; Google's test pins what its own comment calls unreliable",
  83: "Google-only: lines over 16,664 bytes cut short; RFC 9309 has no line limit",
  86: "Google-only: lines over 16,664 bytes cut short; RFC 9309 has no line limit",
};

const googleCases = (JSON.parse(readFileSync(corpusPath("google-robotstxt/cases.json"), "utf8")) as { is_user_agent_allowed: GoogleCase[] })
  .is_user_agent_allowed.map((c, index) => ({ ...c, index }));

// Google's matcher reads an empty URL as "/"; ours takes absolute URLs.
const googleUrl = (c: GoogleCase) => c.url || "http://foo.bar/";

function googleAnswer(c: GoogleCase): boolean | Error {
  try {
    const url = googleUrl(c);
    return parseRobots(robotsUrlFor(url), c.robotstxt).isAllowed(url, c.useragent);
  } catch (error) {
    return error as Error;
  }
}

const applicable = googleCases.filter((c) => !(c.index in GOOGLE_OUT_OF_SCOPE));
const outOfScope = googleCases.filter((c) => c.index in GOOGLE_OUT_OF_SCOPE);
const passed = applicable.filter((c) => googleAnswer(c) === c.allowed).length;
const short = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}...` : text);

describe("google/robotstxt is_user_agent_allowed (145 cases)", () => {
  test(`passes ${passed} of ${applicable.length} applicable cases (${outOfScope.length} out of scope)`, () => {
    expect(googleCases).toHaveLength(145);
    expect(passed / applicable.length).toBeGreaterThanOrEqual(0.95);
    expect(passed).toBe(applicable.length);
  });

  test.each(applicable.map((c) => [c.index, c.test, c.useragent, short(c.url), c.allowed, c] as const))(
    "case %i (%s): %j may fetch %j: %s",
    (_index, _name, _agent, _url, allowed, c) => {
      expect(googleAnswer(c)).toBe(allowed);
    },
  );

  test.each(outOfScope.map((c) => [c.index, GOOGLE_OUT_OF_SCOPE[c.index]!, c] as const))(
    "out of scope, case %i: %s",
    (_index, _reason, c) => {
      expect(googleAnswer(c)).toBe(!c.allowed);
    },
  );
});

// crawler-commons' robots files, with the answers RFC 9309 gives for them.
const ORIGIN = "http://www.example.com";
const robotsFile = (name: string) => readFileSync(corpusPath(`crawler-commons/robots/${name}`));
const rulesFor = (name: string) => parseRobots(`${ORIGIN}/robots.txt`, robotsFile(name));

const ACCESS: [file: string, agent: string, path: string, allowed: boolean][] = [
  ["robots-with-utf8-bom.txt", "foobot", "/profile", false],
  ["robots-with-utf8-bom.txt", "foobot", "/a/output/print", false],
  ["robots-with-utf8-bom.txt", "foobot", "/news", true],
  ["robots-with-utf8-bom.txt", "Googlebot", "/login.aspx", false],
  ["robots-with-utf16le-bom.txt", "foobot", "/profile", false],
  ["robots-with-utf16le-bom.txt", "foobot", "/news", true],
  ["robots-with-utf16be-bom.txt", "foobot", "/profile", false],
  ["robots-with-utf16be-bom.txt", "foobot", "/news", true],
  // RFC 9309 5.1
  ["rfc9309-example-simple-robots.txt", "otherbot", "/example/page.html", false],
  ["rfc9309-example-simple-robots.txt", "otherbot", "/publications/list", true],
  ["rfc9309-example-simple-robots.txt", "otherbot", "/pics/cat.gif", false],
  ["rfc9309-example-simple-robots.txt", "otherbot", "/pics/cat.gif?size=2", true],
  ["rfc9309-example-simple-robots.txt", "otherbot", "/index.html", true],
  ["rfc9309-example-simple-robots.txt", "foobot", "/", false],
  ["rfc9309-example-simple-robots.txt", "foobot", "/example/page.html", true],
  ["rfc9309-example-simple-robots.txt", "foobot", "/example/allowed.gif", true],
  ["rfc9309-example-simple-robots.txt", "foobot", "/example/other.gif", false],
  ["rfc9309-example-simple-robots.txt", "foobot", "/publications/list", false],
  ["rfc9309-example-simple-robots.txt", "barbot", "/example/page.html", false],
  ["rfc9309-example-simple-robots.txt", "barbot", "/example/other.html", true],
  ["rfc9309-example-simple-robots.txt", "barbot", "/pics/cat.gif", true],
  ["rfc9309-example-simple-robots.txt", "bazbot", "/example/page.html", false],
  ["rfc9309-example-simple-robots.txt", "quxbot", "/example/page.html", true],
  ["rfc9309-example-simple-robots.txt", "quxbot", "/pics/cat.gif", true],
  // RFC 9309 5.2
  ["rfc9309-example-longest-match-robots.txt", "foobot", "/example/page/", true],
  ["rfc9309-example-longest-match-robots.txt", "foobot", "/example/page/other.gif", true],
  ["rfc9309-example-longest-match-robots.txt", "foobot", "/example/page/disallowed.gif", false],
  ["rfc9309-example-longest-match-robots.txt", "otherbot", "/example/page/disallowed.gif", true],
  // RFC 9309 2.2.1
  ["rfc9309-example-rule-group-merging.txt", "ExampleBot", "/foo", false],
  ["rfc9309-example-rule-group-merging.txt", "ExampleBot", "/bar", false],
  ["rfc9309-example-rule-group-merging.txt", "ExampleBot", "/baz", false],
  ["rfc9309-example-rule-group-merging.txt", "ExampleBot", "/qux", true],
  ["rfc9309-example-rule-group-merging.txt", "BazBot", "/baz", false],
  ["rfc9309-example-rule-group-merging.txt", "BazBot", "/foo", true],
  ["rfc9309-example-rule-group-merging.txt", "otherbot", "/foo", false],
  ["rfc9309-example-rule-group-merging.txt", "otherbot", "/baz", true],
  // Crawl-delay and other records do not end a group (RFC 9309 2.2.4)
  ["crawl-delay-group-merging.txt", "mybot", "/private/a", false],
  // The file's comment says /login/ applies to mybot as well; RFC 9309 merges groups by product token, and no group naming mybot has it.
  ["crawl-delay-group-merging.txt", "mybot", "/login/", true],
  ["crawl-delay-group-merging.txt", "mybot", "/news", true],
  ["crawl-delay-group-merging.txt", "yourbot", "/private/a", false],
  ["crawl-delay-group-merging.txt", "yourbot", "/login/", false],
  ["crawl-delay-group-merging.txt", "otherbot", "/private/a", true],
  ["extensions-group-merging.txt", "mybot", "/private/a", false],
  ["extensions-group-merging.txt", "mybot", "/login/", false],
  ["extensions-group-merging.txt", "mybot", "/news", true],
  ["extensions-group-merging.txt", "yourbot", "/login/", false],
  ["extensions-group-merging.txt", "otherbot", "/llms.txt", true],
  ["extensions-group-merging.txt", "otherbot", "/news", false],
  ["extension-robots.txt", "otherbot", "/admin/", false],
  ["extension-robots.txt", "mybot", "/private/", false],
  ["extension-robots.txt", "mybot", "/secret/", true],
  ["extension-robots.txt", "somebot", "/private/", true],
  ["extended-standard-robots.txt", "bot1", "/anything", true],
  ["extended-standard-robots.txt", "bot3", "/anything", true],
  // Misspelt directives and missing colons, read as meant
  ["directive-typos-robots.txt", "bot1", "/desallow/", false],
  ["directive-typos-robots.txt", "bot1", "/dissalow/", false],
  ["directive-typos-robots.txt", "bot2", "/useragent/", false],
  ["directive-typos-robots.txt", "bot3", "/useg-agent/", false],
  ["directive-typos-robots.txt", "bot4", "/useragent-no-colon/", false],
  ["directive-typos-robots.txt", "bot5", "/desallow/", true],
  ["format-errors-robots.txt", "bot1", "/whitespace-before-colon/", false],
  ["format-errors-robots.txt", "bot1", "/no-colon/", false],
  ["format-errors-robots.txt", "bot2", "/no-colon-useragent/", false],
  ["format-errors-robots.txt", "bot3", "/whitespace-before-colon", true],
  ["format-errors-robots.txt", "bot3", "/other", false],
  // Longest match, Allow on a tie, wildcards
  ["merge-rules.txt", "wget", "/foo/bar", true],
  ["merge-rules.txt", "wget", "/tmp/bar", false],
  ["merge-rules.txt", "wget", "/ckh/bar", true],
  ["merge-rules.txt", "testy", "/anything", false],
  ["merge-rules.txt", "curl", "/anything", false],
  ["merge-rules.txt", "otherbot", "/foo/bar", false],
  ["merge-rules.txt", "otherbot", "/anything", true],
  // `Allow: /index.html` also allows `/` itself (Google's reading, see "a directory's index page" below): `/$`
  // ties with `Disallow: /*` in length, and Allow wins a tie (RFC 9309 2.2.2).
  ["precedence-of-rules.txt", "wget", "/", true],
  ["precedence-of-rules.txt", "wget", "/foo", true],
  ["precedence-of-rules.txt", "wget", "/index.html", true],
  ["precedence-of-rules.txt", "wget", "/bar", false],
  ["precedence-of-rules.txt", "testy", "/foo", false],
  ["precedence-of-rules.txt", "testy", "/foo/bar", true],
  ["precedence-of-rules.txt", "testy", "/foo/baz", false],
  ["precedence-of-rules.txt", "testy", "/other", true],
  ["wildcards.txt", "Any-darn-crawler", "/wishlist/bogus", false],
  ["wildcards.txt", "Any-darn-crawler", "/wishlist/universal/page", true],
  ["wildcards.txt", "Any-darn-crawler", "/anydirectoryhere/gcrnsts", false],
  ["twitter.com-robots.txt", "Googlebot", "/search?q=cats", false],
  ["twitter.com-robots.txt", "Googlebot", "/jack/with_friends", false],
  ["twitter.com-robots.txt", "Googlebot", "/jack", true],
  ["twitter.com-robots.txt", "otherbot", "/search?q=cats", false],
  // Agents named with versions and spaces, by product token
  ["many-user-agents.txt", "wget", "/", false],
  ["many-user-agents.txt", "Wget/1.10.2", "/", false],
  ["many-user-agents.txt", "Foobot", "/", false],
  ["many-user-agents.txt", "mysuperlongbotnamethatmatchesnothing", "/", true],
  ["many-user-agents.txt", "mysuperlongbotnamethatmatchesnothing", "/bot-trap/", false],
  ["malformed-path.txt", "bot1", "/wiki/Wikipedia_talk:Mediation_Committee/", false],
  ["malformed-path.txt", "bot1", "/wiki/", true],
  ["dos-line-endings.txt", "bot1", "/", true],
  ["astore.amazon.com-robots.txt", "bot1", "/", true],
  ["www.flot.com-robots.txt", "foobot", "/img/", false],
  ["www.flot.com-robots.txt", "foobot", "/news", true],
  ["relative-sitemap-robots.txt", "bot1", "/cache/", false],
  ["sitemap-robots.txt", "bot1", "/", true],
  ["sitemap-robots-dedup.txt", "bot1", "/", true],
];

const CRAWL_DELAY: [file: string, agent: string, seconds: number | null][] = [
  ["crawl-delay-group-merging.txt", "mybot", 10],
  ["crawl-delay-group-merging.txt", "yourbot", null],
  ["crawl-delay-group-merging.txt", "otherbot", 30],
  ["twitter.com-robots.txt", "Googlebot", null],
  ["twitter.com-robots.txt", "Slurp", 1],
  ["twitter.com-robots.txt", "msnbot/2.0", 10],
  ["twitter.com-robots.txt", "otherbot", null],
  ["dos-line-endings.txt", "bot1", 1],
  ["astore.amazon.com-robots.txt", "bot1", 5],
  ["extended-standard-robots.txt", "bot1", null],
];

const SITEMAPS: [file: string, sitemaps: string[]][] = [
  ["robots-with-utf8-bom.txt", ["http://www.newsweek.com/sitemap_index.xml"]],
  ["robots-with-utf16le-bom.txt", ["http://www.newsweek.com/sitemap_index.xml"]],
  ["robots-with-utf16be-bom.txt", ["http://www.newsweek.com/sitemap_index.xml"]],
  ["relative-sitemap-robots.txt", [`${ORIGIN}/sitemap.xml`]],
  ["extension-robots.txt", [`${ORIGIN}/sitemap.xml`]],
  ["format-errors-robots.txt", [`${ORIGIN}/sitemap.xml`]],
  ["sitemap-robots-dedup.txt", ["http://example.org/sitemap.xml"]],
  // A bare URL line is not a Sitemap record: two, not crawler-commons' three; the mixed case is kept.
  ["sitemap-robots.txt", ["http://domain.com/sitemap.xml", "http://domain.com/dir/MixedCased-sitemap.xml"]],
  ["www.flot.com-robots.txt", ["http://flot.com/sitemap_index.xml"]],
  ["twitter.com-robots.txt", []],
];

describe("crawler-commons robots files", () => {
  test("every file in the corpus has expectations", () => {
    const files = new Set([...ACCESS, ...CRAWL_DELAY, ...SITEMAPS].map(([file]) => file));
    expect(files.size).toBe(24);
  });

  test.each(ACCESS)("%s: %s may fetch %s: %s", (file, agent, path, allowed) => {
    expect(rulesFor(file).isAllowed(ORIGIN + path, agent)).toBe(allowed);
  });

  test.each(CRAWL_DELAY)("%s: Crawl-delay for %s is %s", (file, agent, seconds) => {
    expect(rulesFor(file).crawlDelaySeconds(agent)).toBe(seconds);
  });

  test.each(SITEMAPS)("%s: sitemaps %j", (file, sitemaps) => {
    expect(rulesFor(file).sitemaps).toEqual(sitemaps);
  });
});

describe("matching as RFC 9309 asks", () => {
  const rules = (text: string) => parseRobots("https://example.com/robots.txt", text);

  test("a User-Agent header matches the group of its product token, in any case", () => {
    const r = rules("User-agent: *\nDisallow: /\n\nUser-agent: oddwire\nDisallow: /private/\n");
    expect(r.isAllowed("https://example.com/story", "Oddwire/0.1 (+https://oddwire.example)")).toBe(true);
    expect(r.isAllowed("https://example.com/private/x", "ODDWIRE")).toBe(false);
    expect(r.isAllowed("https://example.com/story", "Otherbot/2.0")).toBe(false);
  });

  test.each([
    ["/foo/bar?baz=quz", "/foo/bar?baz=quz", true],
    ["/foo/bar/ツ", "/foo/bar/%E3%83%84", true],
    ["/foo/bar/%E3%83%84", "/foo/bar/ツ", true],
    ["/foo/bar/%e3%83%84", "/foo/bar/%E3%83%84", true],
    ["/foo/bar/%62%61%7A", "/foo/bar/baz", true],
    ["/foo/bar/baz", "/foo/bar/%62%61%7A", true],
    ["/~mak", "/%7Emak/index.html", true],
    ["/á", "/%C3%A1", true],
    ["/a%2Fb", "/a/b", false],
    ["/a/b", "/a%2Fb", false],
    ["/a b", "/a%20b", true],
  ])("percent-encoding: a rule %j matches %j: %s", (rule, path, matches) => {
    expect(rules(`User-agent: *\nDisallow: ${rule}\n`).isAllowed(`https://example.com${path}`, "oddwire")).toBe(!matches);
  });

  test("robots.txt itself is always allowed", () => {
    expect(rules("User-agent: *\nDisallow: /\n").isAllowed("https://example.com/robots.txt", "oddwire")).toBe(true);
  });

  test("URLs on another origin, or not http(s), are not vouched for", () => {
    const r = rules("User-agent: *\nAllow: /\n");
    expect(r.isAllowed("https://example.com/a", "oddwire")).toBe(true);
    expect(r.isAllowed("http://example.com/a", "oddwire")).toBe(false);
    expect(r.isAllowed("https://example.com:8443/a", "oddwire")).toBe(false);
    expect(r.isAllowed("https://other.example/a", "oddwire")).toBe(false);
    expect(r.isAllowed("not a url", "oddwire")).toBe(false);
    expect(r.isAllowed("ftp://example.com/a", "oddwire")).toBe(false);
  });

  test("an agent with a group of its own does not take the * group's Crawl-delay; others do", () => {
    const r = rules("User-agent: *\nCrawl-delay: 7\n\nUser-agent: oddwire\nDisallow: /x\n");
    expect(r.crawlDelaySeconds("Oddwire/0.1")).toBeNull();
    expect(r.crawlDelaySeconds("otherbot")).toBe(7);
    expect(rules("User-agent: *\nCrawl-delay: 0.5\n").crawlDelaySeconds("oddwire")).toBe(0.5);
    expect(rules("User-agent: *\nCrawl-delay: soon\n").crawlDelaySeconds("oddwire")).toBeNull();
  });

  test("rules before any User-agent line belong to no group", () => {
    expect(rules("Disallow: /\nUser-agent: *\nAllow: /x\n").isAllowed("https://example.com/a", "oddwire")).toBe(true);
  });

  test("text past ROBOTS_MAX_BYTES is ignored, from the line it falls in", () => {
    const filler = `# ${"x".repeat(998)}\n`.repeat(Math.ceil(ROBOTS_MAX_BYTES / 1000));
    const body = Buffer.from(`User-agent: *\nDisallow: /early\n${filler}Disallow: /late\n`);
    expect(body.length).toBeGreaterThan(ROBOTS_MAX_BYTES);
    const r = parseRobots("https://example.com/robots.txt", body);
    expect(r.isAllowed("https://example.com/early", "oddwire")).toBe(false);
    expect(r.isAllowed("https://example.com/late", "oddwire")).toBe(true);
  });

  test("a UTF-8 byte order mark is not part of the first line", () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("User-agent: oddwire\nDisallow: /\n")]);
    expect(parseRobots("https://example.com/robots.txt", body).isAllowed("https://example.com/a", "oddwire")).toBe(false);
  });
});

// Four kinds of case where an earlier version disagreed with an outside conformance suite, each settled
// by RFC 9309 and Google's robots.txt documentation and library (google/robotstxt robots.cc).
describe("agents, unknown records, `$` inside a rule, and a directory's index page", () => {
  const allowed = (text: string, agent: string, path: string) => parseRobots("https://example.com/robots.txt", text).isAllowed(`https://example.com${path}`, agent);

  // RFC 9309 2.2.1: groups are found by case-insensitive product token. A name written with letters beyond
  // ASCII is compared whole, never cut at its first such letter (which made `Bötbot` the same as `Bätbot`).
  test.each([
    ["User-agent: Bötbot\nDisallow: /\n", "Bötbot", "/a", false],
    ["User-agent: Bötbot\nDisallow: /\n", "BÖTBOT/1.0", "/a", false],
    ["User-agent: Bötbot\nDisallow: /\n", "Bätbot", "/a", true],
    ["User-agent: Bötbot\nDisallow: /\n", "B", "/a", true],
    ["User-agent: Bötbot\nDisallow: /\n", "Botbot", "/a", true],
    ["User-agent: *\nDisallow: /\n\nUser-agent: B\nAllow: /\n", "Bötbot", "/a", false],
    ["User-agent: ロボット\nDisallow: /private\n", "ロボット", "/private", false],
    ["User-agent: ロボット\nDisallow: /private\n", "Oddwire/1.0", "/private", true],
    ["User-agent: *\nDisallow: /x\n", "ツ", "/x", false],
    ["User-agent: foobot\nDisallow: /\n", "FooBot/2.1 (ünïcode comment)", "/a", false],
  ])("non-ASCII agents: %j, %s may fetch %s: %s", (text, agent, path, answer) => {
    expect(allowed(text, agent, path)).toBe(answer);
  });

  // RFC 9309 2.2.4: records the crawler does not know (and Sitemap, which is not part of a group) must not
  // interfere with the groups: they neither end a group nor start one.
  test.each([
    ["User-agent: FooBot\nfoo: bar\nDisallow: /\n", "/a", false],
    ["User-agent: FooBot\nDisallow: /a\nfoo: bar\nDisallow: /b\n", "/b", false],
    ["User-agent: FooBot\nDisallow: /a\nSitemap: https://example.com/s.xml\nDisallow: /b\n", "/b", false],
    ["User-agent: FooBot\nSitemap:\nDisallow: /\n", "/a", false],
    ["User-agent: FooBot\nfoo: bar\nUser-agent: BarBot\nDisallow: /\n", "/a", false],
    ["User-agent: FooBot\nSitemap: /s.xml\nUser-agent: BarBot\nDisallow: /\n", "/a", false],
    ["User-agent: FooBot\nNoindex: /a\nHost: example.com\nClean-param: ref\nDisallow: /b\n", "/a", true],
    ["User-agent: FooBot\nNoindex: /a\nHost: example.com\nClean-param: ref\nDisallow: /b\n", "/b", false],
    ["User-agent: FooBot\nDisallow: /a\nfoo: bar\n\nUser-agent: *\nDisallow: /\n", "/b", true],
    ["foo: bar\nUser-agent: FooBot\nDisallow: /a\n", "/a", false],
    ["User-agent: FooBot\nRequest-rate: 1/5\nVisit-time: 0600-0845\n", "/a", true],
    ["User-agent: FooBot\nRequest-rate: 1/5\nUser-agent: *\nDisallow: /a\n", "/a", false],
  ])("unknown records: %j, FooBot may fetch %s: %s", (text, path, answer) => {
    expect(allowed(text, "FooBot", path)).toBe(answer);
  });

  // RFC 9309 2.2.3 gives `$` its meaning at the end of a pattern; Google's matcher reads it there only, and
  // anywhere else as the character itself (robots.cc: "Includes '$' when not at end of pattern").
  test.each([
    ["/foo$bar", "/foo$bar", false],
    ["/foo$bar", "/foo$barbaz", false],
    ["/foo$bar", "/foo", true],
    ["/foo$bar", "/foobar", true],
    ["/foo$", "/foo", false],
    ["/foo$", "/foo/", true],
    ["/foo$", "/foo?x=1", true],
    ["/$foo$", "/$foo", false],
    ["/$foo$", "/$foox", true],
    ["/a$*", "/a$b", false],
    ["/a$*", "/ab", true],
    ["/*$", "/anything", false],
    ["/foo$bar", "/foo%24bar", true],
  ])("`$` inside a rule: Disallow %j, may fetch %j: %s", (rule, path, answer) => {
    expect(allowed(`User-agent: *\nDisallow: ${rule}\n`, "oddwire", path)).toBe(answer);
  });

  // Google's documentation and library: `Allow: /d/index.html` (or `.htm`) also allows `/d/` exactly, as a web
  // server answers the directory with that page. RFC 9309 has nothing against it; nothing else opens up.
  test.each([
    ["Allow: /d/index.html\nDisallow: /\n", "/d/", true],
    ["Allow: /d/index.htm\nDisallow: /\n", "/d/", true],
    ["Allow: /d/index.html\nDisallow: /\n", "/d/index.html", true],
    ["Allow: /d/index.html\nDisallow: /\n", "/d/other.html", false],
    ["Allow: /d/index.html\nDisallow: /\n", "/d/?page=2", false],
    ["Allow: /index.html\nDisallow: /\n", "/", true],
    ["Allow: /d/index.html\nDisallow: /d/$\n", "/d/", true],
    ["Disallow: /d/index.html\n", "/d/", true],
    ["Disallow: /d/\n", "/d/index.html", false],
    ["Allow: /d/$\nDisallow: /\n", "/d/index.html", false],
    ["Allow: /d/index.php\nDisallow: /\n", "/d/", false],
    ["Allow: /*/index.html\nDisallow: /\n", "/d/", false],
  ])("a directory's index page: %j, may fetch %j: %s", (rules, path, answer) => {
    expect(allowed(`User-agent: *\n${rules}`, "oddwire", path)).toBe(answer);
  });
});

describe("fallbacks for robots.txt that could not be read", () => {
  test("ALLOW_ALL (a 4xx) allows every http(s) URL and has no delay or sitemaps", () => {
    expect(ALLOW_ALL.isAllowed("https://example.com/anything", "oddwire")).toBe(true);
    expect(ALLOW_ALL.crawlDelaySeconds("oddwire")).toBeNull();
    expect(ALLOW_ALL.sitemaps).toEqual([]);
  });

  test("DISALLOW_ALL (a 5xx, or unreachable) allows only robots.txt itself", () => {
    expect(DISALLOW_ALL.isAllowed("https://example.com/anything", "oddwire")).toBe(false);
    expect(DISALLOW_ALL.isAllowed("https://example.com/robots.txt", "oddwire")).toBe(true);
    expect(DISALLOW_ALL.sitemaps).toEqual([]);
  });

  test("robotsUrlFor gives the origin's /robots.txt", () => {
    expect(robotsUrlFor("https://Example.com:8443/a/b?c#d")).toBe("https://example.com:8443/robots.txt");
    expect(() => robotsUrlFor("mailto:someone@example.com")).toThrow();
  });
});
