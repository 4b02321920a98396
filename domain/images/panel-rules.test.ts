import { expect, test } from "vitest";
import { bulkBatchSize, estimatedMinutes } from "./panel-rules";

test("the bulk batch is every story needing work plus ten (spec section 9)", () => {
  expect(bulkBatchSize(0)).toBe(10);
  expect(bulkBatchSize(3)).toBe(13);
  expect(bulkBatchSize(240)).toBe(250);
});

test("the estimate is 7 s a story, in whole minutes rounded up", () => {
  expect(estimatedMinutes(1)).toBe(1);
  expect(estimatedMinutes(8)).toBe(1);
  expect(estimatedMinutes(9)).toBe(2);
  expect(estimatedMinutes(50)).toBe(6);
});
