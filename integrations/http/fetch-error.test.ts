import { describe, expect, test, vi } from "vitest";
import { FetchError, isFetchError } from "./fetch-error";

describe("recognising a fetch error", () => {
  test("a FetchError is one, with its code and whether a retry may help", () => {
    const error = new FetchError("TIMEOUT", "https://odd.example/", "slow");
    expect(isFetchError(error)).toBe(true);
    expect(error.retryable).toBe(true);
    expect(new FetchError("BLOCKED_ADDRESS", "http://10.0.0.1/", "no").retryable).toBe(false);
  });

  test("a FetchError from another copy of this module (the web build's bundle) is recognised too", async () => {
    vi.resetModules();
    const copy = await import("./fetch-error");
    const foreign = new copy.FetchError("BLOCKED_ADDRESS", "http://10.0.0.1/", "no");
    expect(foreign).not.toBeInstanceOf(FetchError);
    expect(isFetchError(foreign)).toBe(true);
  });

  test("other errors are not", () => {
    expect(isFetchError(new Error("x"))).toBe(false);
    expect(isFetchError(Object.assign(new Error("x"), { name: "FetchError", code: "TIMEOUT" }))).toBe(false);
    expect(isFetchError(null)).toBe(false);
    expect(isFetchError("FetchError")).toBe(false);
  });
});
