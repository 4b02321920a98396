import { describe, expect, test } from "vitest";
import { errorMessage, rootCauseMessage } from "~/lib/error-message";

describe("errorMessage", () => {
  test.each([
    [new Error("boom"), "boom"],
    [new TypeError("bad type"), "bad type"],
    ["plain text", "plain text"],
    [{ code: 1 }, '{"code":1}'],
    [42, "42"],
    [undefined, "undefined"],
  ])("%j reads as %j", (value, expected) => {
    expect(errorMessage(value)).toBe(expected);
  });
});

describe("rootCauseMessage", () => {
  test("reads the innermost cause, as a driver's wrapped error carries the database's words", () => {
    const db = new Error('duplicate key value violates unique constraint "stories_url_key"');
    const orm = new Error("Failed query: insert into ...", { cause: db });
    expect(rootCauseMessage(new Error("outer", { cause: orm }))).toBe(db.message);
  });

  test("an error without a cause is its own message", () => {
    expect(rootCauseMessage(new Error("alone"))).toBe("alone");
  });
});
