import { describe, expect, test } from "vitest";
import { MAX_AUTO_SCRAPE } from "~/domain/crawl/config";
import {
  addKeyword,
  AUTO_SCRAPE_MAX,
  CONFIG_NOT_OBJECT,
  INVALID_JSON_INLINE,
  parseScrapingConfig,
  sourceFormSchema,
  validateSourceForm,
  WEB_SCRAPING_NEEDS_SITE,
  type SourceFieldErrors,
  type SourceFormInput,
} from "./source-form";
import { sourceForm } from "./testing";

const form = sourceForm;

const errorsOf = (input: SourceFormInput): SourceFieldErrors => {
  const result = validateSourceForm(input);
  return result.ok ? {} : result.errors;
};

describe("the source form's rules", () => {
  test.each<[string, Partial<SourceFormInput>, SourceFieldErrors]>([
    ["a blank name is refused", { name: "   " }, { name: "Name is required" }],
    ["a name over 200 characters is refused", { name: "x".repeat(201) }, { name: "Name must be at most 200 characters" }],
    ["an unknown source type is refused", { sourceType: "carrier-pigeon" }, { sourceType: "Choose a source type: RSS, Web Scraping or Manual" }],
    ["a missing status is refused", { status: "" }, { status: "Status must be active or inactive" }],
    ["status 'error' cannot be chosen in the form", { status: "error" }, { status: "Status must be active or inactive" }],
    ["a website that is not a URL is refused", { websiteUrl: "oddplanet dot example" }, { websiteUrl: "Website URL must be a valid URL, such as https://example.com" }],
    ["a website that is not http(s) is refused", { websiteUrl: "javascript:alert(1)" }, { websiteUrl: "Website URL must start with http:// or https://" }],
    ["an RSS source needs a feed URL", { rssFeedUrl: " " }, { rssFeedUrl: "RSS Feed URL is required for RSS sources" }],
    ["a feed URL must be a URL", { rssFeedUrl: "feed.xml" }, { rssFeedUrl: "RSS Feed URL must be a valid URL, such as https://example.com" }],
    ["a feed URL must be http(s)", { rssFeedUrl: "ftp://oddplanet.example/feed.xml" }, { rssFeedUrl: "RSS Feed URL must start with http:// or https://" }],
    ["a web-scraping config must be JSON", { sourceType: "web_scraping", scrapingConfig: "{startUrls: [" }, { scrapingConfig: INVALID_JSON_INLINE }],
    ["a web-scraping config must be a JSON object", { sourceType: "web_scraping", scrapingConfig: "[1, 2]" }, { scrapingConfig: CONFIG_NOT_OBJECT }],
    [
      "a config's crawlDelay must be a whole number",
      { sourceType: "web_scraping", scrapingConfig: '{"crawlDelay": "slow"}' },
      { scrapingConfig: "In the scraping config, crawlDelay must be a whole number of milliseconds (0 or more)." },
    ],
    [
      "a config's startUrls must be http(s) URLs, whatever the type",
      { scrapingConfig: '{"startUrls": ["file:///etc/passwd"]}' },
      { scrapingConfig: "In the scraping config, startUrls must be a list of http(s) URLs." },
    ],
    [
      "an allowlist pattern that is not a valid regular expression is refused, by name",
      { sourceType: "web_scraping", scrapingConfig: '{"allowlistPatterns": ["/news/", "/[a-/"]}' },
      {
        scrapingConfig:
          "In the scraping config, allowlistPatterns has a pattern that cannot be used: /[a-/ is not a valid regular expression (Invalid regular expression: /[a-/: Unterminated character class).",
      },
    ],
    [
      "an empty denylist pattern is refused",
      { sourceType: "web_scraping", scrapingConfig: '{"denylistPatterns": ["/tag/", "  "]}' },
      { scrapingConfig: 'In the scraping config, denylistPatterns has a pattern that cannot be used: "": a pattern cannot be empty.' },
    ],
    [
      "a denylist pattern over 500 characters is refused, shown shortened",
      { sourceType: "web_scraping", scrapingConfig: JSON.stringify({ denylistPatterns: ["x".repeat(501)] }) },
      { scrapingConfig: `In the scraping config, denylistPatterns has a pattern that cannot be used: "${"x".repeat(60)}...": a pattern is at most 500 characters.` },
    ],
    ["autoScrape over 50 is refused", { sourceType: "web_scraping", scrapingConfig: '{"autoScrape": 51}' }, { scrapingConfig: "In the scraping config, autoScrape must be a whole number from 0 to 50." }],
    ["a fractional autoScrape is refused", { sourceType: "web_scraping", scrapingConfig: '{"autoScrape": 2.5}' }, { scrapingConfig: "In the scraping config, autoScrape must be a whole number from 0 to 50." }],
    ["a negative autoScrape is refused", { sourceType: "web_scraping", scrapingConfig: '{"autoScrape": -1}' }, { scrapingConfig: "In the scraping config, autoScrape must be a whole number from 0 to 50." }],
    [
      "a web-scraping source needs a website or a start URL",
      { sourceType: "web_scraping", rssFeedUrl: "", websiteUrl: " ", scrapingConfig: '{"startUrls": [], "crawlDelay": 0}' },
      { websiteUrl: WEB_SCRAPING_NEEDS_SITE },
    ],
    ["a keyword over 100 characters is refused", { includeKeywords: ["k".repeat(101)] }, { includeKeywords: `Keywords are at most 100 characters ("${"k".repeat(20)}...")` }],
    ["notes over 5000 characters are refused", { notes: "n".repeat(5001) }, { notes: "Notes must be at most 5000 characters" }],
    ["a polling interval under 5 minutes is refused", { pollIntervalMinutes: "4" }, { pollIntervalMinutes: "Polling interval must be a whole number of minutes from 5 to 1440" }],
    ["a polling interval over a day is refused", { pollIntervalMinutes: "1441" }, { pollIntervalMinutes: "Polling interval must be a whole number of minutes from 5 to 1440" }],
    ["a fractional polling interval is refused", { pollIntervalMinutes: "7.5" }, { pollIntervalMinutes: "Polling interval must be a whole number of minutes from 5 to 1440" }],
  ])("%s", (_rule, overrides, expected) => {
    expect(errorsOf(form(overrides))).toEqual(expected);
  });

  test("every problem is reported at once", () => {
    expect(Object.keys(errorsOf(form({ name: "", rssFeedUrl: "", websiteUrl: "nope", pollIntervalMinutes: "0" }))).sort()).toEqual([
      "name",
      "pollIntervalMinutes",
      "rssFeedUrl",
      "websiteUrl",
    ]);
  });

  test.each([
    ["manual", "", "a manual source needs no feed URL"],
    ["web_scraping", "", "a web-scraping source needs no feed URL"],
  ])("type %s with feed '%s': %s", (sourceType, rssFeedUrl) => {
    expect(validateSourceForm(form({ sourceType, rssFeedUrl })).ok).toBe(true);
  });

  test.each<[string, Partial<SourceFormInput>]>([
    ["start URLs without a website", { websiteUrl: "", scrapingConfig: '{"startUrls": ["https://oddplanet.example/news"]}' }],
    ["a website without start URLs", { scrapingConfig: "" }],
    [
      "globs, regular expressions with flags and the largest autoScrape",
      { scrapingConfig: JSON.stringify({ allowlistPatterns: ["/news/*/2026/", String.raw`/\/story\/\d+$/i`], denylistPatterns: ["*?replytocom=*"], autoScrape: 50 }) },
    ],
  ])("a web-scraping source with %s is accepted", (_case, overrides) => {
    expect(validateSourceForm(form({ sourceType: "web_scraping", rssFeedUrl: "", ...overrides })).ok).toBe(true);
  });

  test("the form's autoScrape bound is the crawler's", () => {
    expect(AUTO_SCRAPE_MAX).toBe(MAX_AUTO_SCRAPE);
  });

  test("a valid form comes back trimmed, with the defaults filled in", () => {
    const result = validateSourceForm(
      form({
        name: "  Odd Planet  ",
        websiteUrl: "",
        notes: "  weekly  ",
        pollIntervalMinutes: "",
        scrapingConfig: '{"minBodyThreshold": 800, "custom": true}',
        includeKeywords: [" weird ", "Weird", "", "odd"],
        excludeKeywords: ["sport"],
      }),
    );
    expect(result).toEqual({
      ok: true,
      value: {
        name: "Odd Planet",
        websiteUrl: null,
        rssFeedUrl: "https://oddplanet.example/feed.xml",
        sourceType: "rss",
        status: "active",
        scrapingConfig: { minBodyThreshold: 800, custom: true },
        includeKeywords: ["weird", "odd"],
        excludeKeywords: ["sport"],
        notes: "weekly",
        pollIntervalMinutes: 30,
        defaultCategoryId: null,
      },
    });
  });

  test("config text that is not JSON is no error for a type that does not use it, and is not stored", () => {
    const result = validateSourceForm(form({ sourceType: "rss", scrapingConfig: "{oops" }));
    expect(result).toMatchObject({ ok: true, value: { scrapingConfig: null } });
  });

  test("a blank config is an empty one, even for web scraping", () => {
    expect(parseScrapingConfig("  \n ")).toEqual({ ok: true, value: {} });
    expect(validateSourceForm(form({ sourceType: "web_scraping", scrapingConfig: "" }))).toMatchObject({ ok: true, value: { scrapingConfig: {} } });
  });
});

describe("keyword chips", () => {
  test.each<[string[], string, string[]]>([
    [[], "  weird  ", ["weird"]],
    [["weird"], "", ["weird"]],
    [["weird"], "   ", ["weird"]],
    [["Weird"], "WEIRD", ["Weird"]],
    [["weird"], "odd", ["weird", "odd"]],
  ])("adding to %j the keyword %j gives %j", (list, keyword, expected) => {
    expect(addKeyword(list, keyword)).toEqual(expected);
  });
});

test("the form is read from its submitted fields, keywords as repeated fields (one keyword is a list of one), absent fields blank", () => {
  const fields = { name: "Odd", sourceType: "manual", includeKeywords: ["a", "b"], excludeKeywords: "c", defaultCategoryId: "7" };
  expect(sourceFormSchema.parse(fields)).toEqual({
    name: "Odd",
    websiteUrl: "",
    rssFeedUrl: "",
    sourceType: "manual",
    status: "",
    scrapingConfig: "",
    includeKeywords: ["a", "b"],
    excludeKeywords: ["c"],
    notes: "",
    pollIntervalMinutes: "",
    defaultCategoryId: "7",
  });
});

test.each([
  ["", null],
  [" 12 ", 12],
])("a default category %j is kept as %j", (text, id) => {
  const result = validateSourceForm(form({ defaultCategoryId: text }));
  expect(result).toMatchObject({ ok: true, value: { defaultCategoryId: id } });
});

test.each(["abc", "0", "-3", "1.5"])("a default category %j is refused beside its field", (text) => {
  expect(validateSourceForm(form({ defaultCategoryId: text }))).toEqual({ ok: false, errors: { defaultCategoryId: "Choose one of the categories, or none" } });
});
