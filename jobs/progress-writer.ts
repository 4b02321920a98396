import { systemClock, type Clock } from "~/lib/clock";
import type { Progress } from "~/lib/progress";

export type ProgressWriter = {
  /** Takes the latest progress; writes it now or within `intervalMs`, never more often. */
  report(progress: Progress): void;
  /** Writes whatever is pending and waits for every write. */
  flush(): Promise<void>;
};

/**
 * Throttles progress writes: the first report is written at once, later ones at most once per
 * interval, and the latest value always wins, so a busy job costs a few writes a second.
 */
export function createProgressWriter(options: {
  write: (progress: Progress) => Promise<void>;
  onError: (error: unknown) => void;
  intervalMs?: number;
  now?: Clock;
}): ProgressWriter {
  const intervalMs = options.intervalMs ?? 250;
  const now = options.now ?? systemClock;
  let pending: Progress | null = null;
  let lastWriteAt = -Infinity;
  let timer: ReturnType<typeof setTimeout> | null = null;
  // Writes are chained so they land in the order they were reported.
  let chain: Promise<void> = Promise.resolve();

  const writePending = () => {
    timer = null;
    if (!pending) return;
    const progress = pending;
    pending = null;
    lastWriteAt = now();
    chain = chain.then(() => options.write(progress)).catch(options.onError);
  };

  return {
    report(progress) {
      pending = progress;
      if (timer) return;
      const wait = lastWriteAt + intervalMs - now();
      if (wait <= 0) writePending();
      else timer = setTimeout(writePending, wait);
    },
    async flush() {
      if (timer) clearTimeout(timer);
      writePending();
      await chain;
    },
  };
}
