import { isHttpProtocol } from "~/lib/http-url";

/** An absolute http(s) URL, or null: relative values are resolved against `base` when there is one. */
export function resolveHttpUrl(value: string | null | undefined, base: string | null): string | null {
  if (value == null) return null;
  // Browsers strip these before resolving; so do we, or "java\nscript:" would slip through as relative.
  const trimmed = value.replace(/[\t\n\r]/g, "").trim();
  if (trimmed === "" || trimmed.length > 4096) return null;
  let url: URL;
  try {
    url = base ? new URL(trimmed, base) : new URL(trimmed);
  } catch {
    return null;
  }
  if (!isHttpProtocol(url)) return null;
  if (url.hostname === "") return null;
  return url.href;
}

/** The URL a page's relative links resolve against: its <base href> (itself resolved against the page URL), else the page URL. */
export function effectiveBaseUrl(pageUrl: string, baseHref: string | null): string | null {
  const page = absoluteUrl(pageUrl);
  if (baseHref != null && baseHref.trim() !== "") {
    try {
      const base = page ? new URL(baseHref.trim(), page) : new URL(baseHref.trim());
      // A javascript: or data: base would make every link unusable: ignore it, as the sanitiser would.
      if (isHttpProtocol(base) || base.protocol === "file:") return base.href;
    } catch {
      // An unparseable <base href> is ignored, as browsers do.
    }
  }
  return page;
}

function absoluteUrl(value: string): string | null {
  try {
    return new URL(value).href;
  } catch {
    return null;
  }
}
