import { systemClock, type Clock } from "./clock";

/**
 * Runs what it is given at most once per `intervalMs`; the calls in between are dropped (a warning
 * that would otherwise be logged on every request, say). `now` is the clock (tests pass their own).
 */
export function onceEvery(intervalMs: number, now: Clock = systemClock): { take(run: () => void): void } {
  let last = -Infinity;
  return {
    take(run) {
      const time = now();
      if (time - last < intervalMs) return;
      last = time;
      run();
    },
  };
}
