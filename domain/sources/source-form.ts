import { z } from "zod";
import { compilePattern } from "~/domain/crawl/patterns";
import { httpUrlOrNull } from "~/lib/http-url";

// The source form's rules, shared by the browser (instant feedback) and
// the server (the control). Nothing here touches Node, so the page can import it.

export const SOURCE_TYPES = ["rss", "web_scraping", "manual"] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];
export const SOURCE_TYPE_LABELS: Record<SourceType, string> = { rss: "RSS", web_scraping: "Web Scraping", manual: "Manual" };

export const INVALID_JSON_INLINE = "Invalid JSON. Please fix before saving.";
export const INVALID_JSON_ALERT = "Scraping Config JSON is invalid. Please fix it before saving.";
export const CONFIG_NOT_OBJECT = 'The scraping config must be a JSON object, such as {"startUrls": ["https://..."]}.';

export const POLL_INTERVAL = { default: 30, min: 5, max: 1440 } as const;
export const KEYWORD_MAX_LENGTH = 100;
export const KEYWORDS_MAX = 200;
export const NAME_MAX_LENGTH = 200;
export const NOTES_MAX_LENGTH = 5000;
export const URL_MAX_LENGTH = 2048;
/** autoScrape's bound; readCrawlConfig (domain/crawl/config.ts, not browser-safe) holds to the same MAX_AUTO_SCRAPE. */
export const AUTO_SCRAPE_MAX = 50;
export const WEB_SCRAPING_NEEDS_SITE = "A Web Scraping source needs a Website URL or startUrls in its config";

/** The placeholder of the config textarea: every key the form hints at, with the spec's defaults. */
export const SCRAPING_CONFIG_PLACEHOLDER = `{
  "startUrls": ["https://example.com/weird-news"],
  "allowlistPatterns": ["/news/"],
  "denylistPatterns": ["/tag/"],
  "jsRendering": false,
  "waitForSelector": "article",
  "userAgent": "Oddwire",
  "crawlDelay": 1000,
  "minBodyThreshold": 500
}`;

/** What the form submits: every field as text, keywords as lists. */
export type SourceFormInput = {
  name: string;
  websiteUrl: string;
  rssFeedUrl: string;
  sourceType: string;
  status: string;
  scrapingConfig: string;
  includeKeywords: string[];
  excludeKeywords: string[];
  notes: string;
  pollIntervalMinutes: string;
  /** The category given to the stories the source brings in; blank for none. */
  defaultCategoryId?: string;
};

export type SourceFormField = keyof SourceFormInput;
export type SourceFieldErrors = Partial<Record<SourceFormField, string>>;

/** A checked form, ready to store. `scrapingConfig` is null when the text is not JSON and the type does not need it: the stored config is kept. */
export type SourceFormValues = {
  name: string;
  websiteUrl: string | null;
  rssFeedUrl: string | null;
  sourceType: SourceType;
  status: "active" | "inactive";
  scrapingConfig: Record<string, unknown> | null;
  includeKeywords: string[];
  excludeKeywords: string[];
  notes: string | null;
  pollIntervalMinutes: number;
  defaultCategoryId: number | null;
};

/** An http(s) URL, or why not. */
export function httpUrlProblem(value: string): string | null {
  if (value.length > URL_MAX_LENGTH) return `must be at most ${URL_MAX_LENGTH} characters`;
  if (!URL.canParse(value)) return "must be a valid URL, such as https://example.com";
  return httpUrlOrNull(value) ? null : "must start with http:// or https://";
}

export type ConfigCheck = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

/** Parses the config textarea: blank is an empty config; otherwise it must be a JSON object. */
export function parseScrapingConfig(text: string): ConfigCheck {
  if (text.trim() === "") return { ok: true, value: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, message: INVALID_JSON_INLINE };
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return { ok: false, message: CONFIG_NOT_OBJECT };
  return { ok: true, value: parsed as Record<string, unknown> };
}

// The keys the scrapers read must have the right shape; unknown keys are kept as they are.
const stringList = z.array(z.string());
const knownConfigKeys = z
  .object({
    startUrls: z.array(z.string().refine((v) => httpUrlProblem(v) === null, "must list http(s) URLs")),
    allowlistPatterns: stringList,
    denylistPatterns: stringList,
    jsRendering: z.boolean(),
    waitForSelector: z.string(),
    userAgent: z.string(),
    crawlDelay: z.number().int().min(0),
    minBodyThreshold: z.number().int().min(0),
    autoScrape: z.number().int().min(0).max(AUTO_SCRAPE_MAX),
  })
  .partial()
  .passthrough();

function configShapeProblem(config: Record<string, unknown>): string | null {
  const checked = knownConfigKeys.safeParse(config);
  if (checked.success) return null;
  const issue = checked.error.issues[0]!;
  const key = issue.path.filter((p) => typeof p === "string").join(".");
  const what: Record<string, string> = {
    startUrls: "a list of http(s) URLs",
    allowlistPatterns: "a list of texts",
    denylistPatterns: "a list of texts",
    jsRendering: "true or false",
    waitForSelector: "a text",
    userAgent: "a text",
    crawlDelay: "a whole number of milliseconds (0 or more)",
    minBodyThreshold: "a whole number of characters (0 or more)",
    autoScrape: `a whole number from 0 to ${AUTO_SCRAPE_MAX}`,
  };
  return `In the scraping config, ${key} must be ${what[key] ?? "valid"}.`;
}

// The crawler refuses to run with a pattern it cannot compile, so the form refuses it first.
function patternProblem(config: Record<string, unknown>): string | null {
  for (const key of ["allowlistPatterns", "denylistPatterns"] as const) {
    for (const text of (config[key] as string[] | undefined) ?? []) {
      const checked = compilePattern(text);
      if (checked.ok) continue;
      const shown = text.trim().length > 60 ? `${text.trim().slice(0, 60)}...` : text.trim();
      const named = shown !== "" && checked.message.includes(shown) ? checked.message : `"${shown}": ${checked.message}`;
      return `In the scraping config, ${key} has a pattern that cannot be used: ${named}.`;
    }
  }
  return null;
}

function hasStartUrl(config: Record<string, unknown> | null): boolean {
  return Array.isArray(config?.startUrls) && config.startUrls.some((u) => typeof u === "string" && u.trim() !== "");
}

/** Adds a keyword chip: trimmed, empty ignored, and a duplicate (ignoring case) ignored. */
export function addKeyword(list: readonly string[], keyword: string): string[] {
  const clean = keyword.trim();
  if (clean === "" || list.some((k) => k.toLowerCase() === clean.toLowerCase())) return [...list];
  return [...list, clean];
}

/** A keyword list as stored: each trimmed, empty ones and case-insensitive repeats dropped. */
export function cleanKeywords(list: readonly string[]): string[] {
  return list.reduce<string[]>((kept, k) => addKeyword(kept, k), []);
}

function keywordProblem(list: string[]): string | null {
  if (list.length > KEYWORDS_MAX) return `At most ${KEYWORDS_MAX} keywords`;
  const long = list.find((k) => k.length > KEYWORD_MAX_LENGTH);
  return long ? `Keywords are at most ${KEYWORD_MAX_LENGTH} characters ("${long.slice(0, 20)}...")` : null;
}

export type SourceFormCheck = { ok: true; value: SourceFormValues } | { ok: false; errors: SourceFieldErrors };

/** Checks the whole form and reports every problem at once, by field. */
export function validateSourceForm(input: SourceFormInput): SourceFormCheck {
  const errors: SourceFieldErrors = {};
  const name = input.name.trim();
  if (name === "") errors.name = "Name is required";
  else if (name.length > NAME_MAX_LENGTH) errors.name = `Name must be at most ${NAME_MAX_LENGTH} characters`;

  const sourceType = (SOURCE_TYPES as readonly string[]).includes(input.sourceType) ? (input.sourceType as SourceType) : null;
  if (!sourceType) errors.sourceType = "Choose a source type: RSS, Web Scraping or Manual";

  const status = input.status === "active" || input.status === "inactive" ? input.status : null;
  if (!status) errors.status = "Status must be active or inactive";

  const websiteUrl = input.websiteUrl.trim() || null;
  const websiteProblem = websiteUrl ? httpUrlProblem(websiteUrl) : null;
  if (websiteProblem) errors.websiteUrl = `Website URL ${websiteProblem}`;

  const rssFeedUrl = input.rssFeedUrl.trim() || null;
  if (!rssFeedUrl && sourceType === "rss") errors.rssFeedUrl = "RSS Feed URL is required for RSS sources";
  const feedProblem = rssFeedUrl ? httpUrlProblem(rssFeedUrl) : null;
  if (feedProblem) errors.rssFeedUrl = `RSS Feed URL ${feedProblem}`;

  const config = parseScrapingConfig(input.scrapingConfig);
  let scrapingConfig: Record<string, unknown> | null = null;
  if (config.ok) {
    // Any source may carry settings (manual scrape reads minBodyThreshold), so their shape is always checked.
    const shape = configShapeProblem(config.value) ?? patternProblem(config.value);
    if (shape) errors.scrapingConfig = shape;
    else scrapingConfig = config.value;
  } else if (sourceType === "web_scraping") {
    errors.scrapingConfig = config.message;
  }
  // Discovery starts from the website's robots.txt and sitemaps, or from the start pages.
  if (sourceType === "web_scraping" && config.ok && !websiteUrl && !errors.websiteUrl && !hasStartUrl(config.value)) {
    errors.websiteUrl = WEB_SCRAPING_NEEDS_SITE;
  }

  const includeKeywords = cleanKeywords(input.includeKeywords);
  const excludeKeywords = cleanKeywords(input.excludeKeywords);
  const includeProblem = keywordProblem(includeKeywords);
  if (includeProblem) errors.includeKeywords = includeProblem;
  const excludeProblem = keywordProblem(excludeKeywords);
  if (excludeProblem) errors.excludeKeywords = excludeProblem;

  const notes = input.notes.trim() || null;
  if (notes && notes.length > NOTES_MAX_LENGTH) errors.notes = `Notes must be at most ${NOTES_MAX_LENGTH} characters`;

  const intervalText = input.pollIntervalMinutes.trim();
  const pollIntervalMinutes = intervalText === "" ? POLL_INTERVAL.default : Number(intervalText);
  if (!Number.isInteger(pollIntervalMinutes) || pollIntervalMinutes < POLL_INTERVAL.min || pollIntervalMinutes > POLL_INTERVAL.max) {
    errors.pollIntervalMinutes = `Polling interval must be a whole number of minutes from ${POLL_INTERVAL.min} to ${POLL_INTERVAL.max}`;
  }

  const categoryText = input.defaultCategoryId?.trim() ?? "";
  const defaultCategoryId = categoryText === "" ? null : Number(categoryText);
  if (defaultCategoryId !== null && !(Number.isSafeInteger(defaultCategoryId) && defaultCategoryId > 0)) {
    errors.defaultCategoryId = "Choose one of the categories, or none";
  }

  if (Object.keys(errors).length > 0 || !sourceType || !status) return { ok: false, errors };
  return {
    ok: true,
    value: { name, websiteUrl, rssFeedUrl, sourceType, status, scrapingConfig, includeKeywords, excludeKeywords, notes, pollIntervalMinutes, defaultCategoryId },
  };
}

const text = z.preprocess((value) => (Array.isArray(value) ? value[0] : value) ?? "", z.string());
const list = z.preprocess((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]), z.array(z.string()));

/**
 * The form's fields as submitted (keywords are repeated fields), read by the server's action and by
 * the dialog alike; validateSourceForm then checks them by the same rules on both sides.
 */
export const sourceFormSchema = z.object({
  name: text,
  websiteUrl: text,
  rssFeedUrl: text,
  sourceType: text,
  status: text,
  scrapingConfig: text,
  includeKeywords: list,
  excludeKeywords: list,
  notes: text,
  pollIntervalMinutes: text,
  defaultCategoryId: text,
}) satisfies z.ZodType<SourceFormInput, unknown>;

/** The toasts of the Sources page. */
export const SOURCE_MESSAGES = {
  created: { title: "Source created", description: "Your new source has been added." },
  updated: { title: "Source updated", description: "Your changes have been saved." },
  deleted: { title: "Source deleted successfully", description: "Source and all associated data (stories, rejected stories, and logs) have been removed." },
  createFailed: "Failed to create source",
  updateFailed: "Failed to update source",
  deleteFailed: "Failed to delete source",
  fixFields: "Please fix the highlighted fields.",
} as const;
