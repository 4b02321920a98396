import { expect, test } from "vitest";
import { benchDatabases } from "./databases";

test.each([
  [undefined, ["embedded", "postgres"]],
  ["", ["embedded", "postgres"]],
  ["embedded", ["embedded"]],
  [" postgres , embedded ", ["postgres", "embedded"]],
])("BENCH_DATABASES=%j runs on %j", (value, expected) => {
  expect(benchDatabases(value)).toEqual(expected);
});

test("an engine the product no longer has is refused, naming the known ones", () => {
  expect(() => benchDatabases("pglite,postgres")).toThrow('unknown database "pglite" (known: embedded, postgres)');
});
