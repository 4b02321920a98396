import { readFile } from "node:fs/promises";
import type { Database } from "~/db/client";
import { runMigrations } from "~/db/migrate";
import { createGuardedClient, userAgentFor } from "~/integrations/http/guarded-client";
import type { HttpClient } from "~/integrations/http/types";
import { configSecrets, loadConfig, type Config } from "../config";
import { openConfiguredDatabase } from "../database";
import { createLogger } from "../logger";

/** What the CLI hands its command groups: output, usage errors, and the database and HTTP client as it builds them. */
export type CliTools = {
  out: (line: string) => void;
  err: (line: string) => void;
  usage: (message: string) => Error;
  withDatabase: (work: (database: Database, config: Config) => Promise<void>) => Promise<number>;
  withHttp: <T>(work: (http: HttpClient) => Promise<T>) => Promise<T>;
  readTarget: (target: string, options?: { accept?: string }) => Promise<{ bytes: Uint8Array; contentType: string | null; url: string | null }>;
};

/** The tools, built as the server builds its database and HTTP client. */
export function createCliTools(io: Pick<CliTools, "out" | "err" | "usage">): CliTools {
  return { ...io, withDatabase, withHttp, readTarget };
}

async function withDatabase(work: (database: Database, config: Config) => Promise<void>): Promise<number> {
  const config = loadConfig();
  // What the database says as it opens (an earlier release's data carried over, say) goes to stderr.
  const database = await openConfiguredDatabase(config, createLogger({ level: config.logLevel, fd: 2, secrets: configSecrets(config) }));
  try {
    await runMigrations(database);
    await work(database, config);
    return 0;
  } finally {
    await database.close();
  }
}

// The guarded client, as the server builds it; closed when the work is done.
async function withHttp<T>(work: (http: HttpClient) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const http = createGuardedClient({ userAgent: userAgentFor(config.siteUrl), allowHosts: config.fetchAllowHosts });
  try {
    return await work(http);
  } finally {
    await http.close();
  }
}

// A URL is fetched through the guarded client; anything else is read as a file.
async function readTarget(target: string, options: { accept?: string } = {}): Promise<{ bytes: Uint8Array; contentType: string | null; url: string | null }> {
  if (/^https?:\/\//i.test(target)) {
    const response = await withHttp((http) => http.fetch(target, options.accept ? { headers: { accept: options.accept } } : {}));
    if (response.status < 200 || response.status >= 300) throw new Error(`${target} answered HTTP ${response.status}`);
    return { bytes: response.body, contentType: response.contentType, url: response.url };
  }
  return { bytes: await readFile(target), contentType: null, url: null };
}
