/** What we read from a page's JSON-LD: the article's own fields, raw (cleaned by the caller). */
export type JsonLdArticle = {
  headline: string | null;
  description: string | null;
  /** Image URLs as written, in order of preference. */
  images: string[];
  datePublished: string | null;
  publisherName: string | null;
};

const ARTICLE_TYPE = /(?:Article|BlogPosting|LiveBlogPosting|SocialMediaPosting|Report)$/;
const PAGE_TYPE = /^(?:WebPage|ItemPage)$/;
const MAX_SCRIPT_CHARS = 1_000_000;
const MAX_NODES = 5_000;
const MAX_DEPTH = 8;

type JsonObject = Record<string, unknown>;

/** Reads the first article (NewsArticle, Article, BlogPosting...) in the page's JSON-LD, in @graph and arrays too. */
export function readJsonLd(document: Document): JsonLdArticle | null {
  const roots: unknown[] = [];
  for (const script of Array.from(document.querySelectorAll("script"))) {
    if (!/ld\+json/i.test(script.getAttribute("type") ?? "")) continue;
    const parsed = parseJson(script.textContent ?? "");
    if (parsed !== undefined) roots.push(parsed);
  }
  if (roots.length === 0) return null;
  const nodes = collectNodes(roots);
  const byId = new Map<string, JsonObject>();
  for (const node of nodes) {
    if (typeof node["@id"] === "string" && Object.keys(node).length > 1 && !byId.has(node["@id"])) byId.set(node["@id"], node);
  }
  const deref = (value: unknown): unknown => {
    if (isObject(value) && typeof value["@id"] === "string" && Object.keys(value).length === 1) return byId.get(value["@id"]) ?? value;
    return value;
  };
  const article = nodes.find((node) => types(node).some((t) => ARTICLE_TYPE.test(t)));
  if (!article) return null;
  const publisher = deref(first(article.publisher));
  const website = nodes.find((node) => types(node).includes("WebSite"));
  // Some sites date the page (WebPage) rather than the article inside it.
  const page = nodes.find((node) => types(node).some((t) => PAGE_TYPE.test(t)) && firstString(node.datePublished) !== null);
  return {
    headline: firstString(article.headline) ?? firstString(article.name),
    description: firstString(article.description),
    images: imageUrls(article.image, deref),
    datePublished: firstString(article.datePublished) ?? (page ? firstString(page.datePublished) : null),
    publisherName: (isObject(publisher) ? firstString(publisher.name) : null) ?? (website ? firstString(website.name) : null),
  };
}

function parseJson(text: string): unknown {
  if (text.length > MAX_SCRIPT_CHARS) return undefined;
  // Some sites wrap the JSON in comment or CDATA markers left over from XHTML habits.
  const body = text.trim().replace(/^(?:<!--|\/\/\s*<!\[CDATA\[|<!\[CDATA\[)/, "").replace(/(?:-->|\/\/\s*\]\]>|\]\]>)$/, "").trim();
  if (body === "") return undefined;
  try {
    return JSON.parse(body);
  } catch {
    try {
      // Raw line breaks inside strings are the most common breakage; outside strings they are whitespace anyway.
      // eslint-disable-next-line no-control-regex
      return JSON.parse(body.replace(/[\u0000-\u001f]+/g, " "));
    } catch {
      return undefined;
    }
  }
}

/** Every object in the JSON-LD trees, breadth first (so top-level nodes come before nested ones), bounded. */
function collectNodes(roots: unknown[]): JsonObject[] {
  const nodes: JsonObject[] = [];
  let level: unknown[] = roots;
  for (let depth = 0; depth < MAX_DEPTH && level.length > 0 && nodes.length < MAX_NODES; depth++) {
    const next: unknown[] = [];
    for (const value of level) {
      if (Array.isArray(value)) {
        next.push(...value.slice(0, MAX_NODES));
      } else if (isObject(value)) {
        nodes.push(value);
        if (nodes.length >= MAX_NODES) break;
        for (const child of Object.values(value)) if (typeof child === "object" && child !== null) next.push(child);
      }
    }
    // Arrays add a level without adding objects: flatten them into the same round.
    level = next.flatMap((value) => (Array.isArray(value) ? value.slice(0, MAX_NODES) : [value]));
  }
  return nodes;
}

function types(node: JsonObject): string[] {
  const raw = node["@type"];
  const list = Array.isArray(raw) ? raw : [raw];
  // "schema:NewsArticle" and "https://schema.org/NewsArticle" name the same type.
  return list.filter((t): t is string => typeof t === "string").map((t) => t.split(/[/:#]/).pop() ?? t);
}

function imageUrls(value: unknown, deref: (value: unknown) => unknown): string[] {
  const urls: string[] = [];
  const list = Array.isArray(value) ? value.slice(0, 20) : [value];
  for (const item of list) {
    const image = deref(item);
    if (typeof image === "string") urls.push(image);
    else if (isObject(image)) {
      const url = firstString(image.url) ?? firstString(image.contentUrl);
      if (url) urls.push(url);
    }
  }
  return urls;
}

function first(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}

function firstString(value: unknown): string | null {
  const v = first(value);
  if (typeof v === "string" && v.trim() !== "") return v;
  if (isObject(v) && typeof v["@value"] === "string") return v["@value"];
  return null;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
