import { expect, test } from "vitest";
import { secretScrubber } from "./scrub-secrets";

const SECRET = 'pa"ss/wo rd\\42';

test.each([
  ["as written", `connect failed for ${SECRET}`, "connect failed for [redacted]"],
  ["percent-encoded in a URL", `postgres://app:${encodeURIComponent(SECRET)}@db/oddwire`, "postgres://app:[redacted]@db/oddwire"],
  ["escaped in a JSON line", JSON.stringify({ msg: `bad ${SECRET}` }), '{"msg":"bad [redacted]"}'],
  ["several times", `${SECRET}-${SECRET}`, "[redacted]-[redacted]"],
  ["not there", "nothing to hide", "nothing to hide"],
])("a secret %s is replaced", (_name, text, expected) => {
  expect(secretScrubber([SECRET])(text)).toBe(expected);
});

test("a secret holding another goes whole; unset and short values scrub nothing", () => {
  const scrub = secretScrubber(["abcdefgh", "abcdefgh-longer", undefined, null, "", "short"]);
  expect(scrub("x abcdefgh-longer y abcdefgh z short")).toBe("x [redacted] y [redacted] z short");
  expect(secretScrubber([], "[token]")("abcdefgh")).toBe("abcdefgh");
});
