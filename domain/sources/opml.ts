import { decodeXML } from "entities";
import { dateOf, systemClock } from "~/lib/clock";
import { XMLParser } from "fast-xml-parser";
import { DomainError } from "~/domain/errors";
import { errorMessage } from "~/lib/error-message";
import { escapeXml } from "~/lib/xml";
import type { SourcesDeps } from "./sources";
import { feedKey } from "./sources";
import { httpUrlProblem, NAME_MAX_LENGTH } from "./source-form";

// Sources in and out as OPML 2.0 (http://opml.org/spec2.opml), the format every feed reader speaks.

export const OPML_FILENAME = "oddwire-sources.opml";
export const OPML_CONTENT_TYPE = "text/x-opml; charset=utf-8";
/** An upload larger than this is refused before parsing. */
export const OPML_MAX_BYTES = 2 * 1024 * 1024;
/** More feeds than this in one file is refused: no editor subscribes to that many by hand. */
export const OPML_MAX_FEEDS = 5_000;

export type OpmlFeed = { text: string | null; xmlUrl: string; htmlUrl: string | null };

/** An OPML 2.0 document listing the given feeds, one flat outline each. */
export function buildOpml(feeds: { name: string; rssFeedUrl: string; websiteUrl: string | null }[], meta: { title: string; now: Date }): string {
  const lines = feeds.map((feed) => {
    const html = feed.websiteUrl ? ` htmlUrl="${escapeXml(feed.websiteUrl)}"` : "";
    return `    <outline type="rss" text="${escapeXml(feed.name)}" title="${escapeXml(feed.name)}" xmlUrl="${escapeXml(feed.rssFeedUrl)}"${html}/>`;
  });
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<opml version="2.0">`,
    `  <head>`,
    `    <title>${escapeXml(meta.title)}</title>`,
    `    <dateCreated>${meta.now.toUTCString()}</dateCreated>`,
    `  </head>`,
    `  <body>`,
    ...lines,
    `  </body>`,
    `</opml>`,
    ``,
  ].join("\n");
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "",
  allowBooleanAttributes: true,
  parseTagValue: false,
  parseAttributeValue: false,
  // Entities are decoded by us, after parsing, from the five XML ones and character references only.
  processEntities: false,
  htmlEntities: false,
  isArray: (name) => name.toLowerCase() === "outline",
  maxNestedTags: 64,
});

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === "object" && value !== null && !Array.isArray(value);

function child(node: Node, name: string): unknown {
  const key = Object.keys(node).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : node[key];
}

function attr(node: Node, name: string): string | null {
  const value = child(node, name.toLowerCase());
  return typeof value === "string" ? decodeXML(value).trim() || null : null;
}

function invalid(message: string): DomainError {
  return new DomainError("INVALID_OPML", message);
}

/**
 * Reads the feeds of an OPML file: nested outlines are flattened, in document order; an outline is a
 * feed when it has an xmlUrl. Files with a DOCTYPE or entity declarations are refused outright, so no
 * entity is ever expanded.
 */
export function parseOpml(xml: string): { title: string | null; feeds: OpmlFeed[] } {
  if (Buffer.byteLength(xml, "utf8") > OPML_MAX_BYTES) throw invalid(`The file is larger than ${OPML_MAX_BYTES / 1024 / 1024} MiB`);
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw invalid("OPML files with a DOCTYPE or entity declarations are not accepted");
  let document: unknown;
  try {
    document = parser.parse(xml.replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new DomainError("INVALID_OPML", `The file is not readable OPML: ${errorMessage(error)}`, { cause: error });
  }
  const opml = isNode(document) ? child(document, "opml") : undefined;
  if (!isNode(opml)) throw invalid("The file is not OPML: it has no <opml> element");
  const head = child(opml, "head");
  const titleValue = isNode(head) ? child(head, "title") : undefined;
  const title = typeof titleValue === "string" ? decodeXML(titleValue).trim() || null : null;
  const body = child(opml, "body");

  const feeds: OpmlFeed[] = [];
  const walk = (outlines: unknown) => {
    if (!Array.isArray(outlines)) return;
    for (const outline of outlines) {
      if (!isNode(outline)) continue;
      const xmlUrl = attr(outline, "xmlUrl");
      if (xmlUrl) {
        if (feeds.length >= OPML_MAX_FEEDS) throw invalid(`The file lists more than ${OPML_MAX_FEEDS} feeds`);
        feeds.push({ text: attr(outline, "text") ?? attr(outline, "title"), xmlUrl, htmlUrl: attr(outline, "htmlUrl") });
      }
      walk(child(outline, "outline"));
    }
  };
  if (isNode(body)) walk(child(body, "outline"));
  return { title, feeds };
}

/** Every source with a feed URL, as an OPML 2.0 document. */
export async function exportSourcesOpml(deps: SourcesDeps): Promise<string> {
  const now = dateOf(deps.now ?? systemClock);
  return buildOpml(await deps.sources.listWithFeed(), { title: "Oddwire sources", now });
}

export type OpmlImportResult = {
  imported: { id: number; name: string; feedUrl: string }[];
  skipped: { name: string; feedUrl: string; reason: string }[];
  invalid: { name: string; feedUrl: string; reason: string }[];
};

function nameFor(feed: OpmlFeed, url: URL): string {
  const name = feed.text ?? url.hostname.replace(/^www\./, "");
  return name.length > NAME_MAX_LENGTH ? `${name.slice(0, NAME_MAX_LENGTH - 1)}…` : name;
}

/**
 * Adds the feeds of an OPML file as active RSS sources, all in one transaction. A feed whose
 * normalised URL a source already has (or that the file lists twice) is skipped; an unusable URL is
 * reported and skipped.
 */
export async function importSourcesOpml(deps: SourcesDeps, input: { actorUserId: string | null; xml: string }): Promise<OpmlImportResult> {
  const { feeds } = parseOpml(input.xml);
  const known = new Map<string, string>();
  for (const source of await deps.sources.listWithFeed()) {
    const key = feedKey(source.rssFeedUrl);
    if (key) known.set(key, source.name);
  }
  const result: OpmlImportResult = { imported: [], skipped: [], invalid: [] };
  const rows: { name: string; rssFeedUrl: string; websiteUrl: string | null }[] = [];
  const inFile = new Set<string>();
  for (const feed of feeds) {
    const problem = httpUrlProblem(feed.xmlUrl);
    const key = problem ? null : feedKey(feed.xmlUrl);
    if (problem || !key) {
      result.invalid.push({ name: feed.text ?? feed.xmlUrl, feedUrl: feed.xmlUrl, reason: `Feed URL ${problem ?? "is not a usable URL"}` });
      continue;
    }
    const name = nameFor(feed, new URL(feed.xmlUrl));
    if (known.has(key)) {
      result.skipped.push({ name, feedUrl: feed.xmlUrl, reason: `already added as "${known.get(key)}"` });
      continue;
    }
    if (inFile.has(key)) {
      result.skipped.push({ name, feedUrl: feed.xmlUrl, reason: "listed twice in the file" });
      continue;
    }
    inFile.add(key);
    const websiteUrl = feed.htmlUrl && httpUrlProblem(feed.htmlUrl) === null ? feed.htmlUrl : null;
    rows.push({ name, rssFeedUrl: feed.xmlUrl, websiteUrl });
  }
  const created = await deps.sources.createMany(
    rows.map((row) => ({ ...row, sourceType: "rss" as const, status: "active" as const })),
    { actorUserId: input.actorUserId, action: "source.create", details: { via: "opml" } },
  );
  result.imported = created.map((row) => ({ id: row.id, name: row.name, feedUrl: row.rssFeedUrl ?? "" }));
  return result;
}
