import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import type { Progress } from "~/lib/progress";
import { createProgressWriter } from "./progress-writer";

const at = (done: number): Progress => ({ done, total: 100 });

describe("the progress writer", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function writer() {
    const written: number[] = [];
    const progress = createProgressWriter({
      write: async (p) => {
        written.push(p.done);
      },
      onError: (error) => {
        throw error;
      },
      intervalMs: 250,
      now: () => Date.now(),
    });
    return { written, progress };
  }

  test("writes the first report at once and the latest of a burst after the interval", async () => {
    const { written, progress } = writer();
    for (let done = 1; done <= 50; done++) progress.report(at(done));
    await vi.advanceTimersByTimeAsync(0);
    expect(written).toEqual([1]);

    await vi.advanceTimersByTimeAsync(250);
    expect(written).toEqual([1, 50]);
  });

  test("a job reporting for one second costs about four writes", async () => {
    const { written, progress } = writer();
    for (let ms = 0; ms < 1_000; ms += 10) {
      progress.report(at(ms / 10));
      await vi.advanceTimersByTimeAsync(10);
    }
    await progress.flush();
    expect(written.length).toBeLessThanOrEqual(6);
    expect(written.at(-1)).toBe(99);
  });

  test("flush writes what is pending at once, and nothing twice", async () => {
    const { written, progress } = writer();
    progress.report(at(1));
    progress.report(at(2));
    await progress.flush();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(written).toEqual([1, 2]);
  });

  test("a failed write is handed to onError and later writes still happen", async () => {
    const errors: unknown[] = [];
    let fail = true;
    const written: number[] = [];
    const progress = createProgressWriter({
      write: async (p) => {
        if (fail) {
          fail = false;
          throw new Error("database busy");
        }
        written.push(p.done);
      },
      onError: (error) => errors.push(error),
    });
    progress.report(at(1));
    await vi.advanceTimersByTimeAsync(300);
    progress.report(at(2));
    await progress.flush();
    expect(errors).toHaveLength(1);
    expect(written).toEqual([2]);
  });
});
