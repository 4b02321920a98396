/** A source's keyword rules: include_keywords and exclude_keywords. */
export type KeywordRules = { include: readonly string[]; exclude: readonly string[] };

export type KeywordDecision = { keep: true } | { keep: false; reason: string };

const clean = (words: readonly string[]) => words.map((w) => w.trim().toLowerCase()).filter((w) => w !== "");

/**
 * Whether an item passes its source's keywords: case-insensitive, on title and summary. With include
 * keywords set at least one must appear; any exclude keyword drops the item.
 */
export function applyKeywords(item: { title: string | null; summary: string | null }, rules: KeywordRules): KeywordDecision {
  const haystack = `${item.title ?? ""}\n${item.summary ?? ""}`.toLowerCase();
  const excluded = clean(rules.exclude).find((word) => haystack.includes(word));
  if (excluded !== undefined) return { keep: false, reason: `excluded by keyword "${excluded}"` };
  const include = clean(rules.include);
  if (include.length > 0 && !include.some((word) => haystack.includes(word))) {
    return { keep: false, reason: "matches no include keyword" };
  }
  return { keep: true };
}
