// Node 20's TextDecoder decodes windows-1252 as ISO-8859-1 (bytes 0x80-0x9F come out as C1 controls);
// these are the characters windows-1252 puts there (its five undefined bytes stay as they are).
const HIGH = "€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ";

/** Replaces C1 control characters with the windows-1252 characters they stand for (feedparser's "demoronize"). */
export function repairC1(text: string): string {
  return /[\u0080-\u009f]/.test(text) ? text.replace(/[\u0080-\u009f]/g, (c) => HIGH[c.charCodeAt(0) - 0x80] as string) : text;
}

/** Decodes windows-1252 (and its aliases latin1 / iso-8859-1, as the Encoding Standard says) correctly on every Node version. */
export function decodeWindows1252(bytes: Uint8Array): string {
  return repairC1(new TextDecoder("latin1").decode(bytes));
}

/** True when a label names windows-1252 under the Encoding Standard (latin1, iso-8859-1, us-ascii, cp1252 ...). */
export function isWindows1252(label: string): boolean {
  try {
    return new TextDecoder(label).encoding === "windows-1252";
  } catch {
    return false;
  }
}
