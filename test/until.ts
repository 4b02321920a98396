import { vi } from "vitest";

/** Waits until `look` finds something (not undefined) and returns it; fails naming `what` after `timeoutMs`. */
export function until<T>(look: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
  return vi.waitFor(
    async () => {
      const found = await look();
      if (found === undefined) throw new Error(`timed out waiting for ${what}`);
      return found;
    },
    { timeout: timeoutMs, interval: 100 },
  );
}
