type Area = "local" | "session";

/** A stored string, or null when absent or when the browser refuses storage (private mode, policy). */
export function readStorage(area: Area, key: string): string | null {
  try {
    return (area === "local" ? window.localStorage : window.sessionStorage).getItem(key);
  } catch {
    return null;
  }
}

/** Stores a string (or removes it for null); false when the browser refuses. */
export function writeStorage(area: Area, key: string, value: string | null): boolean {
  try {
    const storage = area === "local" ? window.localStorage : window.sessionStorage;
    if (value === null) storage.removeItem(key);
    else storage.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}
