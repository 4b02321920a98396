/**
 * Keeps the leases a process holds alive while it works: every `everyMs` it renews what it still
 * holds. A lease it no longer has (another process found it lapsed and took the work over, or it
 * was ended elsewhere) is reported through `onLost`, so the work stops instead of running twice.
 * A renewal that fails (the database away for a moment) is tried again at the next tick; the lease
 * itself lasts several ticks.
 */
export type LeaseKeeper<K> = {
  /** Starts keeping these keys alive. */
  hold(keys: Iterable<K>): void;
  /** Stops renewing a key: its work is finished or given back. */
  drop(key: K): void;
  /** The keys still held. */
  held(): K[];
  /** Renews now, out of turn (also what each tick does). */
  renewNow(): Promise<void>;
  /** Stops renewing everything. */
  stop(): void;
};

export function keepLeases<K>(options: {
  /** Renews the leases of `keys`; returns the keys still held. */
  renew: (keys: K[]) => Promise<K[]>;
  everyMs: number;
  onError: (error: unknown) => void;
  onLost?: (keys: K[]) => void;
}): LeaseKeeper<K> {
  const held = new Set<K>();
  let renewing: Promise<void> | null = null;

  const renewNow = () => {
    // One renewal at a time: a slow database never piles them up.
    renewing ??= (async () => {
      const keys = [...held];
      if (keys.length === 0) return;
      try {
        const kept = new Set(await options.renew(keys));
        // Keys dropped while the renewal ran are not lost, only finished.
        const lost = keys.filter((key) => !kept.has(key) && held.has(key));
        for (const key of lost) held.delete(key);
        if (lost.length > 0) options.onLost?.(lost);
      } catch (error) {
        options.onError(error);
      }
    })().finally(() => {
      renewing = null;
    });
    return renewing;
  };

  const timer = setInterval(() => void renewNow(), options.everyMs);
  timer.unref();
  return {
    hold(keys) {
      for (const key of keys) held.add(key);
    },
    drop(key) {
      held.delete(key);
    },
    held: () => [...held],
    renewNow,
    stop() {
      clearInterval(timer);
      held.clear();
    },
  };
}
