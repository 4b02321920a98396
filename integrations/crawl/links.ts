import { parsePage } from "~/integrations/extract/html-document";
import { effectiveBaseUrl, resolveHttpUrl } from "~/integrations/extract/page-url";

/** Links on one page beyond this are not read: a start page is a section front, not a site map. */
export const MAX_LINKS_PER_PAGE = 2_000;

/**
 * The http(s) links of a page, absolute (against its <base href> or its URL), without fragments,
 * each once, in page order. rel=nofollow links are left out, as a polite crawler does.
 */
export function extractLinks(html: string, pageUrl: string): string[] {
  const document = parsePage(html);
  const base = effectiveBaseUrl(pageUrl, document.querySelector("base[href]")?.getAttribute("href") ?? null);
  const links = new Set<string>();
  for (const anchor of document.querySelectorAll("a[href]")) {
    if (/(^|\s)nofollow(\s|$)/i.test(anchor.getAttribute("rel") ?? "")) continue;
    const resolved = resolveHttpUrl(anchor.getAttribute("href"), base);
    if (!resolved) continue;
    const url = new URL(resolved);
    url.hash = "";
    links.add(url.href);
    if (links.size >= MAX_LINKS_PER_PAGE) break;
  }
  return [...links];
}

/** The host a site is known by, without a leading www. */
export function siteHost(url: string): string {
  return new URL(url).hostname.toLowerCase().replace(/^www\./, "");
}

/** Whether two URLs are on the same site: the same host, with or without www. */
export function sameSite(a: string, b: string): boolean {
  try {
    return siteHost(a) === siteHost(b);
  } catch {
    return false;
  }
}
