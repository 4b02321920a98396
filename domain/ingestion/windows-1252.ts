// Node 20's TextDecoder decodes windows-1252 as ISO-8859-1 (bytes 0x80-0x9F come out as C1 controls);
// these are the characters windows-1252 puts there (undefined bytes stay as they are).
const HIGH = "€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ";

/** Decodes windows-1252 (and its aliases latin1 / iso-8859-1, as the Encoding Standard says) correctly on every Node version. */
export function decodeWindows1252(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 8192) {
    const chunk = bytes.subarray(i, i + 8192);
    out += String.fromCharCode(...chunk);
  }
  return out.replace(/[\u0080-\u009f]/g, (c) => HIGH[c.charCodeAt(0) - 0x80] as string);
}

/** True when a label names windows-1252 under the Encoding Standard (latin1, iso-8859-1, us-ascii, cp1252 ...). */
export function isWindows1252(label: string): boolean {
  try {
    return new TextDecoder(label).encoding === "windows-1252";
  } catch {
    return false;
  }
}
