import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker, type ResourceLimits } from "node:worker_threads";
import type { QueryOptions, Results, Transaction } from "@electric-sql/pglite";
import { PROJECT_ROOT } from "~/lib/project-root";

const WORKER_URL = pathToFileURL(path.join(PROJECT_ROOT, "db", "pglite-thread-worker.mjs"));

type Call =
  | { op: "query"; sql: string; params?: unknown[]; rowMode?: "array" | "object"; textOids?: number[]; tx?: number }
  | { op: "exec"; sql: string; rowMode?: "array" | "object"; textOids?: number[]; tx?: number }
  | { op: "begin" }
  | { op: "end"; tx: number; commit: boolean }
  | { op: "dump"; compression: "none" | "gzip" | "auto" }
  | { op: "close" };

type PlainError = { message: string; name: string; stack?: string; [field: string]: unknown };
type Reply = { id: number; ok: boolean; result?: unknown; error?: PlainError; inTransaction: boolean };
type Pending = { resolve: (result: unknown) => void; reject: (error: Error) => void };

/** PostgreSQL's error as the worker sent it, with its fields (code, detail, constraint...) kept. */
function toError(plain: PlainError): Error {
  const { message, name, stack, ...fields } = plain;
  const error = Object.assign(new Error(message), fields);
  error.name = name;
  if (stack) error.stack = stack;
  return error;
}

/** What a query's options become on the way to the worker: functions cannot cross threads. */
function wireOptions(options: QueryOptions | undefined) {
  if (!options) return {};
  const { rowMode, parsers, ...rest } = options;
  const unsupported = Object.keys(rest).filter((key) => rest[key as keyof typeof rest] !== undefined);
  if (unsupported.length > 0) throw new Error(`the embedded database's thread does not take these query options: ${unsupported.join(", ")}`);
  return {
    ...(rowMode ? { rowMode } : {}),
    ...(parsers ? { textOids: Object.keys(parsers).map(Number) } : {}),
  };
}

/** Applies the caller's parsers to the columns the worker left as text. */
function parsed<T>(result: Results<T>, options: QueryOptions | undefined): Results<T> {
  const parsers = options?.parsers;
  if (!parsers) return result;
  const columns = result.fields.flatMap((field, index) => {
    const parse = parsers[field.dataTypeID];
    return parse ? [{ index, name: field.name, parse, oid: field.dataTypeID }] : [];
  });
  if (columns.length === 0) return result;
  for (const row of result.rows as Record<string | number, unknown>[]) {
    for (const column of columns) {
      const key = options.rowMode === "array" ? column.index : column.name;
      const value = row[key];
      if (value !== null && value !== undefined) row[key] = (column.parse as (text: string, oid: number) => unknown)(value as string, column.oid);
    }
  }
  return result;
}

export type PGliteThreadOptions = {
  /** PGlite's data dir; none keeps the database in memory. */
  dataDir?: string;
  /** A dump (`dumpDataDir`) to start from. */
  dump?: Blob;
  /** postgresql.conf lines. */
  postgresqlConf?: string[];
  /**
   * Told once if the thread stops while the database is open (it ran out of memory, say): every call
   * fails from then on, and only a new process opens the database again.
   */
  onStopped?: (error: Error) => void;
  /** Limits of the thread's JavaScript heap (Node's defaults when none). */
  resourceLimits?: ResourceLimits;
};

/**
 * The embedded database (PGlite, with the extensions search needs) in a worker thread of its own,
 * behind the part of PGlite's interface that Drizzle, the job queue and backups use. In the thread
 * that serves HTTP, loading PGlite's extensions left a V8 inline cache of Node's `process.nextTick`
 * megamorphic for good, which made every later HTTP answer slower by a fifth (decision 019).
 */
export class PGliteThread {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 0;
  #inTransaction = false;
  #stopped: Error | null = null;
  #closing: Promise<void> | null = null;

  private constructor(worker: Worker, onStopped: ((error: Error) => void) | undefined) {
    this.#worker = worker;
    worker.unref();
    worker.on("message", (reply: Reply) => {
      const pending = this.#pending.get(reply.id);
      if (!pending) return;
      this.#settled(reply.id);
      this.#inTransaction = reply.inTransaction;
      if (reply.ok) pending.resolve(reply.result);
      else pending.reject(toError(reply.error ?? { message: "the embedded database failed", name: "Error" }));
    });
    const stop = (error: Error) => {
      if (this.#stopped) return;
      this.#stopped = error;
      if (!this.#closing) onStopped?.(error);
      for (const [id, pending] of this.#pending) {
        this.#settled(id);
        pending.reject(this.#stopped);
      }
    };
    worker.on("error", (error) => stop(new Error(`the embedded database's thread failed: ${error.message}`, { cause: error })));
    worker.on("exit", (code) => stop(new Error(`the embedded database's thread stopped (exit code ${code})`)));
  }

  /** Starts the thread and opens the database in it; rejects with PGlite's own error if it cannot. */
  static async start(options: PGliteThreadOptions): Promise<PGliteThread> {
    const dump = options.dump ? await options.dump.arrayBuffer() : undefined;
    const worker = new Worker(WORKER_URL, {
      workerData: { dataDir: options.dataDir, dump, postgresqlConf: options.postgresqlConf },
      ...(dump ? { transferList: [dump] } : {}),
      ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}),
    });
    let onMessage = (_message: { ready?: true; failed?: PlainError }) => {};
    let onError = (_error: Error) => {};
    let onExit = (_code: number) => {};
    try {
      await new Promise<void>((resolve, reject) => {
        onMessage = (message) => {
          if (message.ready) resolve();
          else if (message.failed) reject(toError(message.failed));
        };
        onError = reject;
        onExit = (code) => reject(new Error(`the embedded database's thread stopped (exit code ${code})`));
        worker.on("message", onMessage).on("error", onError).on("exit", onExit);
      });
    } catch (error) {
      await worker.terminate();
      throw error;
    } finally {
      worker.off("message", onMessage).off("error", onError).off("exit", onExit);
    }
    return new PGliteThread(worker, options.onStopped);
  }

  #settled(id: number) {
    this.#pending.delete(id);
    if (this.#pending.size === 0) this.#worker.unref();
  }

  #call<T>(call: Call, id = this.#nextId++): Promise<T> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    return new Promise<T>((resolve, reject) => {
      // Only while a call waits for its answer does the thread keep the process running.
      if (this.#pending.size === 0) this.#worker.ref();
      this.#pending.set(id, { resolve: resolve as (result: unknown) => void, reject });
      this.#worker.postMessage({ id, ...call });
    });
  }

  async #query<T>(sql: string, params: unknown[] | undefined, options: QueryOptions | undefined, tx?: number): Promise<Results<T>> {
    const wire = wireOptions(options);
    const result = await this.#call<Results<T>>({ op: "query", sql, ...(params ? { params } : {}), ...wire, ...(tx === undefined ? {} : { tx }) });
    return parsed(result, options);
  }

  async #exec(sql: string, options: QueryOptions | undefined, tx?: number): Promise<Results[]> {
    const wire = wireOptions(options);
    const results = await this.#call<Results[]>({ op: "exec", sql, ...wire, ...(tx === undefined ? {} : { tx }) });
    return results.map((result) => parsed(result, options));
  }

  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.#query<T>(sql, params, options);
  }

  exec(sql: string, options?: QueryOptions): Promise<Results[]> {
    return this.#exec(sql, options);
  }

  /**
   * Runs `work` in a transaction, committed when it returns and rolled back when it throws. As in
   * PGlite, other calls wait until it ends.
   */
  async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const id = this.#nextId++;
    await this.#call<null>({ op: "begin" }, id);
    let closed = false;
    const tx = {
      query: <R>(sql: string, params?: unknown[], options?: QueryOptions) => this.#query<R>(sql, params, options, id),
      exec: (sql: string, options?: QueryOptions) => this.#exec(sql, options, id),
      rollback: async () => {
        await this.#exec("ROLLBACK", undefined, id);
        closed = true;
      },
      get closed() {
        return closed;
      },
    } as unknown as Transaction;
    let result: T;
    try {
      result = await work(tx);
    } catch (error) {
      await this.#call<null>({ op: "end", tx: id, commit: false }).catch(() => {});
      throw error;
    }
    await this.#call<null>({ op: "end", tx: id, commit: !closed });
    return result;
  }

  /** Whether the connection was inside a transaction when the last answer left the thread. */
  isInTransaction(): boolean {
    return this.#inTransaction;
  }

  async dumpDataDir(compression: "none" | "gzip" | "auto" = "auto"): Promise<File> {
    const { bytes, name, type } = await this.#call<{ bytes: ArrayBuffer; name: string; type: string }>({ op: "dump", compression });
    return new File([bytes], name, { type });
  }

  /** Closes the database and ends the thread; calls made after it fail. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      if (!this.#stopped) {
        const exited = new Promise<void>((resolve) => this.#worker.once("exit", () => resolve()));
        await this.#call<null>({ op: "close" });
        this.#worker.ref();
        await exited;
      }
      this.#stopped = new Error("the embedded database is closed");
    })();
    return this.#closing;
  }
}
