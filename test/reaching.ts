import { vi } from "vitest";

/**
 * Reads until `done` holds of what `read` gives, and returns that; fails after `timeoutMs` naming
 * `what` and the last value read. For outcomes that come in their own time (a job finishing, a row
 * changing): vi.waitFor does the waiting.
 */
export function reaching<T, S extends T = T>(
  read: () => T | Promise<T>,
  done: ((value: T) => value is S) | ((value: T) => boolean),
  what: string,
  timeoutMs = 15_000,
): Promise<S> {
  return vi.waitFor(
    async () => {
      const value = await read();
      // The narrowing the caller's guard proved, when it is one.
      if (done(value)) return value as S;
      throw new Error(`still waiting for ${what}; last read: ${JSON.stringify(value)}`);
    },
    { timeout: timeoutMs, interval: 50 },
  );
}
