/**
 * allowlistPatterns and denylistPatterns of a scraping config. A pattern is either a glob, matched
 * anywhere in the URL and ignoring case, where `*` stands for any run of characters
 * ("/news/*\/2026/"), or a regular expression written between slashes with optional flags
 * ("/\/story\/\d+$/i"). A URL passes when no deny pattern matches it and, if there are allow
 * patterns, at least one of them does: deny wins.
 */

export const PATTERN_MAX_LENGTH = 500;

export type UrlPattern = { text: string; matches(url: string): boolean };

export type PatternCheck = { ok: true; pattern: UrlPattern } | { ok: false; message: string };

const REGEX_FORM = /^\/(.+)\/([a-z]*)$/s;

/** Compiles one pattern, or says why it cannot be used. */
export function compilePattern(text: string): PatternCheck {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: false, message: "a pattern cannot be empty" };
  if (trimmed.length > PATTERN_MAX_LENGTH) return { ok: false, message: `a pattern is at most ${PATTERN_MAX_LENGTH} characters` };
  const regex = REGEX_FORM.exec(trimmed);
  // "/news/" is the common glob for a path segment: it is read as a regex only when it has flags or
  // regex syntax, which a plain path never needs.
  if (regex && (regex[2] !== "" || /[\\^$.|?+()[\]{}]/.test(regex[1]!))) {
    try {
      const compiled = new RegExp(regex[1]!, regex[2]!.replace(/[gy]/g, ""));
      return { ok: true, pattern: { text: trimmed, matches: (url) => compiled.test(url) } };
    } catch (error) {
      return { ok: false, message: `${trimmed} is not a valid regular expression (${(error as Error).message})` };
    }
  }
  const escaped = trimmed
    .toLowerCase()
    .split("*")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"))
    .join(".*");
  const glob = new RegExp(escaped);
  return { ok: true, pattern: { text: trimmed, matches: (url) => glob.test(url.toLowerCase()) } };
}

export type UrlFilter = { allow: UrlPattern[]; deny: UrlPattern[] };

/** Compiles both lists; every unusable pattern is reported. */
export function compileFilter(allow: readonly string[], deny: readonly string[]): { ok: true; filter: UrlFilter } | { ok: false; messages: string[] } {
  const messages: string[] = [];
  const compile = (list: readonly string[]) =>
    list.flatMap((text) => {
      const checked = compilePattern(text);
      if (checked.ok) return [checked.pattern];
      messages.push(checked.message);
      return [];
    });
  const filter = { allow: compile(allow), deny: compile(deny) };
  return messages.length > 0 ? { ok: false, messages } : { ok: true, filter };
}

/** Whether a URL passes the filter: not denied, and allowed when there is an allowlist. */
export function passesFilter(filter: UrlFilter, url: string): boolean {
  if (filter.deny.some((p) => p.matches(url))) return false;
  return filter.allow.length === 0 || filter.allow.some((p) => p.matches(url));
}
