import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { Logger } from "pino";
import { PROJECT_ROOT } from "~/lib/project-root";
import { FeedParseError, FeedParseTimeoutError, parseFeed, type ParsedFeed, type ParseFeedInput } from "~/domain/ingestion/feed/parse-feed";
import { parseSitemap, SitemapError, type ParsedSitemap, type ParseSitemapOptions, type SitemapErrorCode } from "~/integrations/crawl/sitemap";

/**
 * Parses feeds and sitemaps away from the main thread, so parsing neither blocks web requests nor
 * waits behind the embedded database.
 */
export type FeedParserPool = {
  parse(input: ParseFeedInput): Promise<ParsedFeed>;
  /**
   * A fetched sitemap, read as a stream on the worker. A body that is the only view of its memory (a
   * fetched body is) is moved there, not copied: the caller must not read it afterwards.
   */
  parseSitemap(body: Uint8Array, options: ParseSitemapOptions): Promise<ParsedSitemap>;
  close(): Promise<void>;
};

type Task = { task: "feed"; input: ParseFeedInput } | { task: "sitemap"; body: Uint8Array; options: ParseSitemapOptions };
type Reply = {
  ready?: true;
  id?: number;
  /** Part of a sitemap's URLs, sent ahead of the result: each message is read back on this thread in one go. */
  urls?: ParsedSitemap["urls"];
  result?: ParsedFeed | ParsedSitemap;
  error?: { code: string; message: string; kind: "feed" | "sitemap" | null };
};
type Job = { id: number; work: Task; url: string | null | undefined; resolve: (result: ParsedFeed | ParsedSitemap) => void; reject: (error: Error) => void };

const WORKER_URL = pathToFileURL(path.join(PROJECT_ROOT, "server", "processes", "feed-parse-worker.mjs"));
/** A feed that takes longer than this to parse is hostile or broken: its worker is replaced. */
const PARSE_TIMEOUT_MS = 15_000;

/**
 * A worker thread (the second core) that parses one feed or sitemap at a time. A parse that hangs is
 * cut off after 15 s and the worker replaced, so the documents queued behind it still get parsed; when
 * no worker can start, they are parsed on the calling thread instead (a sitemap in chunks that yield).
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
  let current: { job: Job; timer: NodeJS.Timeout | null; urls: ParsedSitemap["urls"][] } | null = null;
  let ready = false;
  let closed = false;
  let unavailable = false;
  let nextId = 0;

  const settle = (outcome: { result?: ParsedFeed | ParsedSitemap; error?: Error }) => {
    if (!current) return;
    const { job, timer } = current;
    if (timer) clearTimeout(timer);
    current = null;
    if (outcome.result) job.resolve(outcome.result);
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
        const running = current;
        if (!running || running.job.id !== reply.id) return;
        if (reply.urls) return void running.urls.push(reply.urls);
        if (reply.result && running.urls.length > 0) {
          const sitemap = reply.result as ParsedSitemap;
          settle({ result: { ...sitemap, urls: running.urls.flat().concat(sitemap.urls) } });
        } else if (reply.result) settle({ result: reply.result });
        else if (reply.error?.kind === "feed") settle({ error: new FeedParseError(reply.error.code as "NOT_A_FEED", reply.error.message) });
        else if (reply.error?.kind === "sitemap") settle({ error: new SitemapError(reply.error.code as SitemapErrorCode, reply.error.message) });
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
      options.logger.warn({ url: job.url }, `${job.work.task} parsing timed out; replacing the parser`);
      replaceWorker(job.work.task === "feed" ? new FeedParseTimeoutError(timeoutMs) : new Error(`The sitemap took too long to parse (more than ${Math.round(timeoutMs / 1000)} s)`));
    }, timeoutMs);

  function pump() {
    if (closed || current || queue.length === 0) return;
    worker ??= unavailable ? null : spawn();
    const job = queue.shift() as Job;
    const { work } = job;
    if (!worker) {
      if (work.task === "sitemap") {
        // Chunked, yielding between chunks: the calling thread keeps answering meanwhile.
        parseSitemap(work.body, work.options).then(job.resolve, job.reject).finally(pump);
        return;
      }
      try {
        job.resolve(parseFeed(work.input));
      } catch (error) {
        job.reject(error as Error);
      }
      return pump();
    }
    // The clock starts once the worker has loaded: its start-up is not the document's fault.
    current = { job, timer: ready ? startTimer(job) : null, urls: [] };
    if (work.task === "sitemap") {
      // Tens of MB: copying them would hold this thread and double the memory for a while.
      const { body } = work;
      const memory = body.buffer instanceof ArrayBuffer && body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? body.buffer : new Uint8Array(body).buffer;
      worker.postMessage({ id: job.id, task: "sitemap", input: { bytes: new Uint8Array(memory), options: work.options } }, [memory]);
      return;
    }
    const bytes = typeof work.input.bytes === "string" ? work.input.bytes : new Uint8Array(work.input.bytes);
    worker.postMessage({ id: job.id, task: "feed", input: { ...work.input, bytes } }, typeof bytes === "string" ? [] : [bytes.buffer]);
  }

  const submit = <T extends ParsedFeed | ParsedSitemap>(work: Task, url: string | null | undefined): Promise<T> => {
    if (closed) return Promise.reject(new Error("feed parser closed"));
    return new Promise<T>((resolve, reject) => {
      queue.push({ id: ++nextId, work, url, resolve: resolve as (result: ParsedFeed | ParsedSitemap) => void, reject });
      pump();
    });
  };

  return {
    parse: (input) => submit<ParsedFeed>({ task: "feed", input }, input.url),
    parseSitemap: (body, sitemapOptions) => submit<ParsedSitemap>({ task: "sitemap", body, options: sitemapOptions }, sitemapOptions.url),
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
