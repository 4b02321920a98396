import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/** False while the server-rendered page waits for its JavaScript, true once React runs in the browser. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
