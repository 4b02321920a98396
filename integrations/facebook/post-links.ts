import { normalizeUrl } from "~/lib/normalize-url";
import { list, object, text, type Json } from "./graph-json";

// Which links a post of the Page carries, and whether one of them is a story's.

/** A URL reduced to what makes two links the same story: no scheme, www, trailing slash, fragment or tracking; sorted query. */
function linkKey(link: string): string | null {
  const result = normalizeUrl(link);
  return result.ok ? result.normalized.replace(/^https?:/, "") : null;
}

/** True when two links point at the same page (http vs https, a trailing slash and query order aside). */
export function sameLink(a: string, b: string): boolean {
  const keyA = linkKey(a);
  return keyA !== null && keyA === linkKey(b);
}

/** Facebook wraps outgoing links as l.facebook.com/l.php?u=<link>&h=...: the link inside. */
function unshim(link: string): string {
  try {
    const url = new URL(link);
    if (/^(l|lm)\.facebook\.com$/i.test(url.hostname) && url.pathname === "/l.php") return url.searchParams.get("u") ?? link;
  } catch {
    // not a URL: compared as it is
  }
  return link;
}

/** Every link a post carries: its attachments' (and their sub-attachments') and those written in its message. */
export function linksOf(post: Json): string[] {
  const links: string[] = [];
  const addAttachments = (attachments: unknown) => {
    for (const attachment of list(object(attachments).data)) {
      const item = object(attachment);
      for (const field of ["unshimmed_url", "url"]) {
        const value = text(item[field]);
        if (value) links.push(unshim(value));
      }
      addAttachments(item.subattachments);
    }
  };
  addAttachments(post.attachments);
  const link = text(post.link);
  if (link) links.push(unshim(link));
  for (const match of text(post.message)?.match(/https?:\/\/[^\s<>"']+/g) ?? []) links.push(match.replace(/[.,;:!?)\]]+$/, ""));
  return links;
}
