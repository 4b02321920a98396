import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { Logger } from "pino";
import { PROJECT_ROOT } from "~/lib/project-root";
import { FeedParseError, FeedParseTimeoutError, parseFeed, type ParsedFeed, type ParseFeedInput } from "~/domain/ingestion/feed/parse-feed";

/** Parses feeds away from the main thread, so parsing neither blocks web requests nor waits behind the embedded database. */
export type FeedParserPool = {
  parse(input: ParseFeedInput): Promise<ParsedFeed>;
  close(): Promise<void>;
};

type Reply = { ready?: true; id?: number; feed?: ParsedFeed; error?: { code: string; message: string; parseError: boolean } };
type Job = { id: number; input: ParseFeedInput; resolve: (feed: ParsedFeed) => void; reject: (error: Error) => void };

const WORKER_URL = pathToFileURL(path.join(PROJECT_ROOT, "server", "feed-parse-worker.mjs"));
/** A feed that takes longer than this to parse is hostile or broken: its worker is replaced. */
const PARSE_TIMEOUT_MS = 15_000;

/**
 * A worker thread (the second core) that parses one feed at a time. A parse that hangs is cut off
 * after 15 s and the worker replaced, so the feeds queued behind it still get parsed; when no worker
 * can start, feeds are parsed on the calling thread instead.
 */
export function createFeedParserPool(options: {
  logger: Logger;
  timeoutMs?: number;
  /** A module whose parseFeed the worker runs instead of ours (tests: a parse that never ends). */
  parserModule?: string;
}): FeedParserPool {
  const timeoutMs = options.timeoutMs ?? PARSE_TIMEOUT_MS;
  const queue: Job[] = [];
  let worker: Worker | null = null;
  let current: { job: Job; timer: NodeJS.Timeout | null } | null = null;
  let ready = false;
  let closed = false;
  let unavailable = false;
  let nextId = 0;

  const settle = (outcome: { feed?: ParsedFeed; error?: Error }) => {
    if (!current) return;
    const { job, timer } = current;
    if (timer) clearTimeout(timer);
    current = null;
    if (outcome.feed) job.resolve(outcome.feed);
    else job.reject(outcome.error ?? new Error("feed parser failed"));
  };

  const replaceWorker = (reason: Error) => {
    const old = worker;
    worker = null;
    ready = false;
    settle({ error: reason });
    void old?.terminate();
    pump();
  };

  const spawn = (): Worker | null => {
    try {
      const created = new Worker(WORKER_URL, { workerData: { parserModule: options.parserModule ?? null } });
      created.unref();
      created.on("message", (reply: Reply) => {
        if (created !== worker) return;
        if (reply.ready) {
          ready = true;
          if (current && !current.timer) current.timer = startTimer(current.job);
          return;
        }
        if (current?.job.id !== reply.id) return;
        if (reply.feed) settle({ feed: reply.feed });
        else if (reply.error?.parseError) settle({ error: new FeedParseError(reply.error.code as "NOT_A_FEED", reply.error.message) });
        else settle({ error: new Error(reply.error?.message ?? "feed parser failed") });
        pump();
      });
      created.on("error", (error) => {
        if (created !== worker) return;
        options.logger.error({ err: error }, "feed parser worker failed; starting another");
        replaceWorker(new Error(`feed parser failed: ${error.message}`));
      });
      created.on("exit", () => {
        if (created === worker && !closed) replaceWorker(new Error("feed parser stopped"));
      });
      return created;
    } catch (error) {
      unavailable = true;
      options.logger.warn({ err: error }, "cannot start a feed parser worker; parsing on the main thread");
      return null;
    }
  };

  const startTimer = (job: Job) =>
    setTimeout(() => {
      options.logger.warn({ url: job.input.url }, "feed parsing timed out; replacing the parser");
      replaceWorker(new FeedParseTimeoutError(timeoutMs));
    }, timeoutMs);

  function pump() {
    if (closed || current || queue.length === 0) return;
    worker ??= unavailable ? null : spawn();
    const job = queue.shift() as Job;
    if (!worker) {
      try {
        job.resolve(parseFeed(job.input));
      } catch (error) {
        job.reject(error as Error);
      }
      return pump();
    }
    // The clock starts once the worker has loaded: its start-up is not the feed's fault.
    current = { job, timer: ready ? startTimer(job) : null };
    const bytes = typeof job.input.bytes === "string" ? job.input.bytes : Uint8Array.from(job.input.bytes);
    worker.postMessage({ id: job.id, input: { ...job.input, bytes } }, typeof bytes === "string" ? [] : [bytes.buffer]);
  }

  return {
    parse(input) {
      if (closed) return Promise.reject(new Error("feed parser closed"));
      return new Promise<ParsedFeed>((resolve, reject) => {
        queue.push({ id: ++nextId, input, resolve, reject });
        pump();
      });
    },
    async close() {
      closed = true;
      settle({ error: new Error("feed parser closed") });
      for (const job of queue.splice(0)) job.reject(new Error("feed parser closed"));
      const old = worker;
      worker = null;
      ready = false;
      await old?.terminate();
    },
  };
}
