import { expect, test } from "vitest";
import { onceEvery } from "./once-every";

test("runs the first call, drops the others until the interval has passed, then runs the next", () => {
  let time = 1_000;
  const once = onceEvery(60_000, () => time);
  const ran: number[] = [];
  for (const at of [0, 1, 59_999, 60_000, 60_001, 119_999, 120_000]) {
    time = 1_000 + at;
    once.take(() => ran.push(at));
  }
  expect(ran).toEqual([0, 60_000, 120_000]);
});
