import { expect, test } from "vitest";
import { containsPattern } from "./like-pattern";

test.each([
  ["goat", "%goat%"],
  ["", "%%"],
  ["100%", "%100\\%%"],
  ["snake_case", "%snake\\_case%"],
  ["back\\slash", "%back\\\\slash%"],
  ["%_\\", "%\\%\\_\\\\%"],
  ["https://odd.example/a?b=1", "%https://odd.example/a?b=1%"],
])("%j is matched anywhere by the pattern %j", (text, pattern) => {
  expect(containsPattern(text)).toBe(pattern);
});
