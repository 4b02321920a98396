/** The first candidate that the reader turns into a value (null and undefined candidates are skipped). */
export function firstOf<T>(candidates: readonly unknown[], read: (value: unknown) => T | null): T | null {
  for (const candidate of candidates) {
    if (candidate == null) continue;
    const value = read(candidate);
    if (value !== null) return value;
  }
  return null;
}
