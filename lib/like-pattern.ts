/** A LIKE pattern matching `text` anywhere, LIKE's wildcards and its escape character in it taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
