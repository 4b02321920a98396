import { createGuardedClient, type GuardedClientOptions } from "./guarded-client";
import type { HttpClient } from "./types";

/** A guarded client for tests: 127.0.0.1 allowed (fixture servers), a short timeout, everything else as in production. */
export function testHttpClient(overrides: Partial<GuardedClientOptions> = {}): HttpClient {
  return createGuardedClient({
    userAgent: "Oddwire/test (+http://localhost)",
    allowHosts: ["127.0.0.1"],
    timeoutMs: 5_000,
    ...overrides,
  });
}
