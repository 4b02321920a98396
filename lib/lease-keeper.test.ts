import { describe, expect, test, vi } from "vitest";
import { keepLeases } from "./lease-keeper";

describe("keepLeases", () => {
  test("renews what is held on every tick, and stops with stop()", async () => {
    vi.useFakeTimers();
    try {
      const renewed: number[][] = [];
      const keeper = keepLeases<number>({ renew: async (keys) => (renewed.push(keys), keys), everyMs: 1_000, onError: () => {} });
      keeper.hold([1, 2]);
      await vi.advanceTimersByTimeAsync(1_000);
      keeper.drop(1);
      await vi.advanceTimersByTimeAsync(1_000);
      keeper.stop();
      await vi.advanceTimersByTimeAsync(5_000);
      expect(renewed).toEqual([[1, 2], [2]]);
    } finally {
      vi.useRealTimers();
    }
  });

  test("a key the renewal did not keep is reported lost once and no longer held; one dropped meanwhile is not", async () => {
    const lost: number[][] = [];
    let release!: () => void;
    const keeper = keepLeases<number>({
      // Only key 1 is still held in the database.
      renew: (keys) => new Promise((resolve) => (release = () => resolve(keys.filter((k) => k === 1)))),
      everyMs: 60_000,
      onError: () => {},
      onLost: (keys) => lost.push(keys),
    });
    keeper.hold([1, 2, 3]);
    const renewal = keeper.renewNow();
    keeper.drop(3);
    release();
    await renewal;
    expect(lost).toEqual([[2]]);
    expect(keeper.held()).toEqual([1]);
    keeper.stop();
  });

  test("a renewal that fails is reported and tried again at the next tick, keeping every key", async () => {
    const errors: unknown[] = [];
    let fail = true;
    const keeper = keepLeases<number>({
      renew: async (keys) => {
        if (fail) throw new Error("database away");
        return keys;
      },
      everyMs: 60_000,
      onError: (error) => errors.push(error),
    });
    keeper.hold([7]);
    await keeper.renewNow();
    expect(errors).toHaveLength(1);
    expect(keeper.held()).toEqual([7]);
    fail = false;
    await keeper.renewNow();
    expect(errors).toHaveLength(1);
    keeper.stop();
  });
});
