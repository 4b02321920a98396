/** True when the URL is http: or https:, the only schemes the site fetches, stores or links to. */
export function isHttpProtocol(url: URL): boolean {
  return url.protocol === "http:" || url.protocol === "https:";
}

/**
 * The absolute http(s) URL for a value (relative values resolve against `base` when there is one),
 * or null for anything else: blank, unparseable, javascript:, data:, mailto: and the like.
 */
export function httpUrlOrNull(value: string | null | undefined, base?: string | null): string | null {
  if (value == null) return null;
  const trimmed = value.trim();
  if (trimmed === "") return null;
  let url: URL;
  try {
    url = base ? new URL(trimmed, base) : new URL(trimmed);
  } catch {
    return null;
  }
  return isHttpProtocol(url) ? url.href : null;
}

/** True for a string that is, as written, an absolute http(s) URL: `http://` or `https://` and a URL that parses. */
export function isHttpUrl(value: string | null | undefined): value is string {
  return /^\s*https?:\/\//i.test(value ?? "") && httpUrlOrNull(value) !== null;
}
