import { expect, test } from "vitest";
import { urlForLog } from "./request-log";

test.each([
  ["/api/auth/verify-email?token=eyJhbGc.abc.def&callbackURL=%2Fadmin", "/api/auth/verify-email?token=[redacted]&callbackURL=%2Fadmin"],
  ["/api/auth/reset-password/Zx81kLm?callbackURL=%2Freset-password", "/api/auth/reset-password/[redacted]?callbackURL=%2Freset-password"],
  ["/reset-password?token=Zx81kLm", "/reset-password?token=[redacted]"],
  ["/reset-password?error=INVALID_TOKEN", "/reset-password?error=INVALID_TOKEN"],
  ["/search?q=token&TOKEN=abc", "/search?q=token&TOKEN=[redacted]"],
  ["/story/goat-mayor", "/story/goat-mayor"],
])("the request log keeps %s as %s", (url, logged) => {
  expect(urlForLog(url)).toBe(logged);
});
