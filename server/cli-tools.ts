import type { Database } from "~/db/client";
import type { HttpClient } from "~/integrations/http/types";
import type { Config } from "./config";

/** What the CLI hands its command groups: output, usage errors, and the database and HTTP client as it builds them. */
export type CliTools = {
  out: (line: string) => void;
  err: (line: string) => void;
  usage: (message: string) => Error;
  withDatabase: (work: (database: Database, config: Config) => Promise<void>) => Promise<number>;
  withHttp: <T>(work: (http: HttpClient) => Promise<T>) => Promise<T>;
  readTarget: (target: string, options?: { accept?: string }) => Promise<{ bytes: Uint8Array; contentType: string | null; url: string | null }>;
};
