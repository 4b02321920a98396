import { decodeHTMLStrict } from "entities";
import { htmlToText, truncateText } from "~/domain/ingestion/html";

const ENTITY = /&(?:#\d{1,7}|#x[0-9a-f]{1,6}|[a-z][a-z0-9]{1,31});/i;
const TAG = /<\/?[a-z!][^<>]*>/i;

/**
 * One line of plain text from a metadata value: tags dropped, entities decoded (values that were
 * escaped twice too, as many sites do in og: tags and JSON-LD), whitespace collapsed; null when empty.
 */
export function cleanLine(value: unknown, max = 1000): string | null {
  if (typeof value !== "string") return null;
  let text = value;
  if (TAG.test(text)) text = htmlToText(text);
  for (let i = 0; i < 2 && ENTITY.test(text); i++) text = decodeHTMLStrict(text);
  text = text.replace(/(?:\s|\u200b|\u200c|\u200d)+/g, " ").trim();
  if (text === "") return null;
  return truncateText(text, max);
}

const SEPARATORS = ["|", "-", "–", "—", "·", "•", "::", ":", "/", "»", "«"];

/** A title without the site's name when it is tacked on after a separator ("Title | Site"). */
export function stripSiteName(title: string, siteName: string | null): string {
  if (!siteName) return title;
  const site = siteName.toLowerCase();
  const lower = title.toLowerCase();
  for (const sep of SEPARATORS) {
    const suffix = ` ${sep} ${site}`;
    if (lower.endsWith(suffix) && title.length > suffix.length) return title.slice(0, title.length - suffix.length).trim();
  }
  return title;
}
