import { describe, expect, test } from "vitest";
import { eachLimit } from "./each-limit";

// A turn of the event loop: every item already started runs meanwhile, so the peak counts them all.
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("eachLimit", () => {
  test.each([
    { items: 7, limit: 3, most: 3 },
    { items: 2, limit: 8, most: 2 },
    { items: 5, limit: 1, most: 1 },
    { items: 3, limit: 0, most: 1 },
    { items: 0, limit: 4, most: 0 },
  ])("$items items with a limit of $limit run at most $most at once, each once", async ({ items, limit, most }) => {
    let running = 0;
    let peak = 0;
    const seen: number[] = [];
    await eachLimit(
      Array.from({ length: items }, (_, i) => i),
      limit,
      async (n, index) => {
        peak = Math.max(peak, ++running);
        await tick();
        seen.push(n);
        expect(index).toBe(n);
        running--;
      },
    );
    expect(peak).toBe(most);
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: items }, (_, i) => i));
  });

  test("runs every item, never more than the limit at once", async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    await eachLimit([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      most = Math.max(most, ++running);
      await tick();
      done.push(n);
      running--;
    });
    expect(done.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(3);
  });

  test("one item's failure neither stops the other items nor settles before they are done", async () => {
    const done: number[] = [];
    const outcome = await eachLimit([1, 2, 3, 4], 2, async (n) => {
      if (n === 1) throw new Error("one failed");
      await tick();
      done.push(n);
    }).catch((error: unknown) => error);
    expect(done.sort()).toEqual([2, 3, 4]);
    expect(outcome).toMatchObject({ message: "one failed" });
  });

  test("several failures reject together", async () => {
    const outcome = await eachLimit([1, 2, 3], 3, async (n) => {
      if (n > 1) throw new Error(`item ${n}`);
    }).catch((error: unknown) => error);
    expect(outcome).toBeInstanceOf(AggregateError);
    expect((outcome as AggregateError).errors.map((e: Error) => e.message).sort()).toEqual(["item 2", "item 3"]);
  });
});
