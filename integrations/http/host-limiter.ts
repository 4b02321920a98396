/** A counting semaphore per host name: at most `limit` holders at once, the rest wait in order. */
export type HostLimiter = {
  /** Waits for a slot on `host`; resolves to the function that gives it back. Rejects when `signal` aborts. */
  acquire(host: string, signal?: AbortSignal): Promise<() => void>;
  /** Slots in use on `host` (for tests and diagnostics). */
  active(host: string): number;
};

type HostState = { active: number; waiting: (() => void)[] };

/** Builds a per-host limiter allowing `limit` simultaneous holders of each host. */
export function createHostLimiter(limit: number): HostLimiter {
  const hosts = new Map<string, HostState>();

  const releaser = (host: string, state: HostState) => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = state.waiting.shift();
      if (next) return next();
      state.active -= 1;
      if (state.active === 0) hosts.delete(host);
    };
  };

  return {
    active: (host) => hosts.get(host)?.active ?? 0,
    acquire(host, signal) {
      signal?.throwIfAborted();
      let state = hosts.get(host);
      if (!state) hosts.set(host, (state = { active: 0, waiting: [] }));
      const current = state;
      if (current.active < limit) {
        current.active += 1;
        return Promise.resolve(releaser(host, current));
      }
      return new Promise((resolve, reject) => {
        // A released slot passes straight to the next waiter, so `active` stays counted.
        const onTurn = () => {
          signal?.removeEventListener("abort", onAbort);
          resolve(releaser(host, current));
        };
        const onAbort = () => {
          const index = current.waiting.indexOf(onTurn);
          if (index >= 0) current.waiting.splice(index, 1);
          reject(signal?.reason);
        };
        current.waiting.push(onTurn);
        signal?.addEventListener("abort", onAbort, { once: true });
      });
    },
  };
}
