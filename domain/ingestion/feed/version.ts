import type { JsonFeed } from "feedsmith";
import type { FeedFormat } from "./types";

/** The format's version as the document states it (or implies it by namespace). */
export function detectVersion(format: FeedFormat, text: string, json: JsonFeed.Feed<string> | null): string | null {
  if (format === "json") {
    const v = /version\/(\d+(?:\.\d+)?)/.exec(String((json as { version?: unknown } | null)?.version ?? ""));
    return v ? v[1]! : null;
  }
  if (format === "atom") {
    if (/http:\/\/www\.w3\.org\/2005\/Atom/.test(text)) return "1.0";
    const v = /<(?:[\w-]+:)?feed\b[^>]*\bversion\s*=\s*["']([^"']+)["']/i.exec(text);
    return v ? v[1]! : /purl\.org\/atom\/ns#/.test(text) ? "0.3" : null;
  }
  if (format === "rdf") {
    return /my\.netscape\.com\/rdf\/simple\/0\.9/.test(text) ? "0.90" : "1.0";
  }
  const v = /<(?:[\w-]+:)?rss\b[^>]*\bversion\s*=\s*["']([^"']+)["']/i.exec(text);
  return v ? v[1]!.trim() : null;
}
