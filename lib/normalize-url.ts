import { createHash } from "node:crypto";
import { decodeHTML } from "entities";

/** Query parameters that only track a visit and never change what a URL points at. */
export const TRACKING_PARAMETERS: ReadonlySet<string> = new Set([
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "utm_term",
  "utm_content",
  "utm_id",
  "gclid",
  "fbclid",
  "mc_cid",
  "mc_eid",
  "igshid",
  "ref",
  "ns_mchannel",
  "ns_campaign",
  "ito",
]);

export type NormalizedUrl = { ok: true; input: string; normalized: string; hash: string };
export type NormalizeUrlError = {
  ok: false;
  input: string;
  error: { code: "EMPTY" | "INVALID_URL" | "UNSUPPORTED_SCHEME"; message: string };
};
export type NormalizeUrlResult = NormalizedUrl | NormalizeUrlError;

const ZERO_WIDTH = /[\u200B-\u200D\u2060\uFEFF\u00AD]/g;
const HAS_SCHEME = /^([a-z][a-z0-9+.-]*):(?!\d)/i;
const ENCODED_SCHEME = /^[a-z][a-z0-9+.-]*%3A/i;

/** Normalises a URL for deduplication, exactly by the product's deduplication rules; never throws. */
export function normalizeUrl(input: string): NormalizeUrlResult {
  const fail = (code: NormalizeUrlError["error"]["code"], message: string): NormalizeUrlError => ({
    ok: false,
    input,
    error: { code, message },
  });
  if (typeof input !== "string") return fail("INVALID_URL", "Not a URL: expected text");

  let text = input.trim().replace(ZERO_WIDTH, "");
  text = decodeHTML(text).trim();
  if (ENCODED_SCHEME.test(text)) text = safeDecode(text);
  if (text === "") return fail("EMPTY", "Not a URL: the input is empty");

  if (text.startsWith("/") && !text.startsWith("//")) {
    return fail("INVALID_URL", `Not a URL: "${text}" is a path without a host`);
  }
  if (text.startsWith("//")) text = `https:${text}`;
  const scheme = HAS_SCHEME.exec(text)?.[1]?.toLowerCase();
  const guessedScheme = scheme === undefined;
  if (guessedScheme) text = `https://${text}`;
  else if (scheme !== "http" && scheme !== "https") {
    return fail("UNSUPPORTED_SCHEME", `Not a web URL: the scheme "${scheme}:" is not http or https`);
  }

  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return fail("INVALID_URL", `Not a URL: "${input.trim()}" cannot be parsed`);
  }
  if (url.hostname === "") return fail("INVALID_URL", `Not a URL: "${input.trim()}" has no host`);

  let host = url.hostname.toLowerCase().replace(/\.$/, "");
  // Without a scheme, a bare word ("hello") is more likely garbage than an intranet host.
  if (guessedScheme && !host.includes(".") && !host.includes(":") && host !== "localhost") {
    return fail("INVALID_URL", `Not a URL: "${input.trim()}" has no domain`);
  }
  if (host.startsWith("www.") && host.indexOf(".", 4) !== -1) host = host.slice(4);
  const port = url.port === "" || url.port === "80" || url.port === "443" ? "" : `:${url.port}`;

  const path = normalizePath(url.pathname);
  const query = normalizeQuery(url.search.slice(1));
  const normalized = `${url.protocol}//${host}${port}${path}${query === "" ? "" : `?${query}`}`;
  return { ok: true, input, normalized, hash: sha256Hex(normalized) };
}

/** SHA-256 of a text as lower-case hex: the url_hash of a normalised URL. */
export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** The hash that identifies a rejected story's content. */
export function rejectionContentHash(input: {
  title: string;
  url: string;
  sourceId: number | string | null;
}): string {
  return sha256Hex([input.title.trim().toLowerCase(), input.url, String(input.sourceId ?? "")].join("|"));
}

function normalizePath(pathname: string): string {
  let path = pathname.replace(/\/{2,}/g, "/");
  if (path.length > 1) path = path.replace(/\/+$/, "");
  if (path === "") path = "/";
  return decodePath(path);
}

// Decode escapes in the path, but keep those whose character would change the URL's structure.
function decodePath(path: string): string {
  return path.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(run);
    } catch {
      return run.toUpperCase();
    }
    return Array.from(decoded)
      .map((ch) => (/[/?#%\\\s\p{Cc}]/u.test(ch) ? encodeURIComponent(ch) : ch))
      .join("");
  });
}

function normalizeQuery(rawQuery: string): string {
  if (rawQuery === "") return "";
  const pairs: { name: string; value: string; hasValue: boolean }[] = [];
  for (const raw of rawQuery.split("&")) {
    if (raw === "") continue;
    const eq = raw.indexOf("=");
    const name = stripAmp(decodeQueryPart(eq === -1 ? raw : raw.slice(0, eq)));
    const value = eq === -1 ? "" : stripAmp(decodeQueryPart(raw.slice(eq + 1)));
    if (name === "" && value === "") continue;
    if (TRACKING_PARAMETERS.has(name.toLowerCase())) continue;
    pairs.push({ name, value, hasValue: eq !== -1 });
  }
  // Array.prototype.sort is stable: repeated names keep their order.
  pairs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return pairs
    .map((p) => (p.hasValue ? `${encodeQueryPart(p.name)}=${encodeQueryPart(p.value)}` : encodeQueryPart(p.name)))
    .join("&");
}

function stripAmp(part: string): string {
  let out = part;
  while (out.toLowerCase().startsWith("amp;")) out = out.slice(4);
  return out;
}

function decodeQueryPart(part: string): string {
  return safeDecode(part.replace(/\+/g, " "));
}

function encodeQueryPart(part: string): string {
  return encodeURIComponent(part)
    .replace(/%20/g, "+")
    .replace(/%2F/g, "/")
    .replace(/%3A/g, ":")
    .replace(/%40/g, "@")
    .replace(/%2C/g, ",")
    .replace(/%7C/g, "|");
}

// Decode every valid escape; leave malformed ones as they are instead of throwing.
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}
