// Links from mails carry secrets in their URLs (the verification and reset tokens): the request log
// keeps their shape, never their value.
const SECRET_PARAMS = new Set(["token"]);
const SECRET_PATHS = [/^(\/api\/auth\/reset-password\/)[^/?#]+/];

/** A request URL as the log may keep it: tokens in its query or its path replaced. */
export function urlForLog(url: string): string {
  const [rawPath, query] = splitOnce(url, "?");
  const path = SECRET_PATHS.reduce((p, pattern) => p.replace(pattern, "$1[redacted]"), rawPath);
  if (query === undefined) return path;
  const params = query.split("&").map((pair) => {
    const [name = ""] = splitOnce(pair, "=");
    let decoded = name;
    try {
      decoded = decodeURIComponent(name.replace(/\+/g, " "));
    } catch {
      // A malformed name is logged as sent.
    }
    return SECRET_PARAMS.has(decoded.toLowerCase()) ? `${name}=[redacted]` : pair;
  });
  return `${path}?${params.join("&")}`;
}

function splitOnce(value: string, separator: string): [string, string | undefined] {
  const at = value.indexOf(separator);
  return at === -1 ? [value, undefined] : [value.slice(0, at), value.slice(at + 1)];
}
