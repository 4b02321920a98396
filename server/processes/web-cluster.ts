import cluster, { type Worker } from "node:cluster";
import path from "node:path";
import { AggregatorRegistry, type Registry } from "prom-client";
import { createRateLimiter, type RateDecision, type RateLimiter } from "~/lib/rate-limit";
import { errorMessage } from "~/lib/error-message";
import { PROJECT_ROOT } from "~/lib/project-root";
import type { AppContext } from "../app-context";
import type { Config } from "../config";
import type { Logger } from "../logger";

// Several web processes on one machine (node:cluster, decision 017). The primary prepares the
// database and, with ROLE=all, runs the background jobs; it forks WEB_CONCURRENCY web processes that
// share the listening port. What must be one for all of them lives in the primary and is asked for
// over the cluster's channel: each client's search allowance and the /metrics exposition. Cached
// public pages are each process's own and are dropped across processes by LISTEN/NOTIFY; their last
// good copies, served while pages fail to render, are files in DATA_DIR that every process reads.

const ENTRY = path.join(PROJECT_ROOT, "server", "processes", "web-process.mjs");
/**
 * glibc's malloc arenas a web process may have (unless MALLOC_ARENA_MAX is set already). By default
 * each thread that allocates (compression runs on libuv's pool) may get its own, and memory freed in
 * one stays with it: at 100,000 stories on PostgreSQL the larger of two web processes held 285 MiB
 * after `npm run bench:public`, 241 MiB with two arenas.
 */
const WEB_MALLOC_ARENAS = "2";
/** The young generation's size, as bin/oddwire.mjs's first line gives it to the primary (why: there). */
const WEB_NODE_FLAGS = ["--max-semi-space-size=2"];
/** How long a web process waits for the primary's answer on a search allowance before deciding alone. */
const ASK_TIMEOUT_MS = 1_000;
/** The primary gives every web process 5 s to report its metrics (prom-client's AggregatorRegistry). */
const METRICS_TIMEOUT_MS = 6_000;
/** A web process that ends this soon after starting counts as failing to start. */
const QUICK_EXIT_MS = 10_000;

type Limits = { search: { burst: number; perMinute: number }; suggestions: { burst: number; perMinute: number } };
type LimiterName = keyof Limits;

/** What the primary and a web process say to each other. */
type Message =
  | { type: "oddwire:hello" }
  | { type: "oddwire:start"; config: Config; demo: boolean }
  | { type: "oddwire:listening"; url: string }
  | { type: "oddwire:take"; id: number; limiter: LimiterName; key: string }
  | { type: "oddwire:took"; id: number; decision: RateDecision }
  | { type: "oddwire:metrics"; id: number }
  | { type: "oddwire:metrics-result"; id: number; contentType: string; body: string }
  | { type: "oddwire:metrics-failed"; id: number; error: string };

const isMessage = (value: unknown): value is Message =>
  typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string" && (value as { type: string }).type.startsWith("oddwire:");

export type WebCluster = {
  /** Resolves with the site's address once every web process listens. */
  ready: Promise<string>;
  /** Stops every web process (also while they are starting) and resolves when all have ended. */
  close(): Promise<void>;
};

/**
 * Forks `config.webConcurrency` web processes; `ready` resolves once every one listens. A process
 * that dies later is replaced (after a pause that grows while they keep dying young). `ready`
 * rejects when a process ends before it listens (say, the port is taken), after stopping the others.
 */
export function startWebCluster(options: { config: Config; demo: boolean; logger: Logger; limits: Limits }): WebCluster {
  const { config, logger } = options;
  const count = config.webConcurrency;
  const limiters: Record<LimiterName, RateLimiter> = {
    search: createRateLimiter(options.limits.search),
    suggestions: createRateLimiter(options.limits.suggestions),
  };
  const aggregator = new AggregatorRegistry();
  const live = new Set<Worker>();
  let stopping = false;
  let restartPauseMs = 1_000;

  cluster.setupPrimary({ exec: ENTRY, args: [], execArgv: WEB_NODE_FLAGS });

  const answer = async (worker: Worker, message: Message) => {
    if (message.type === "oddwire:take") {
      const decision = await limiters[message.limiter].take(message.key);
      send(worker, { type: "oddwire:took", id: message.id, decision });
    } else if (message.type === "oddwire:metrics") {
      try {
        const body = await aggregator.clusterMetrics();
        send(worker, { type: "oddwire:metrics-result", id: message.id, contentType: aggregator.contentType, body });
      } catch (error) {
        send(worker, { type: "oddwire:metrics-failed", id: message.id, error: errorMessage(error) });
      }
    }
  };

  const fork = (): Promise<string> =>
    new Promise((resolve, reject) => {
      const startedAt = Date.now();
      const worker = cluster.fork({ MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? WEB_MALLOC_ARENAS });
      live.add(worker);
      let listening = false;
      worker.on("message", (message: unknown) => {
        if (!isMessage(message)) return;
        // Asked for once the web process listens for messages (one sent earlier would be lost).
        if (message.type === "oddwire:hello") send(worker, { type: "oddwire:start", config, demo: options.demo });
        else if (message.type === "oddwire:listening") {
          listening = true;
          resolve(message.url);
        } else void answer(worker, message);
      });
      worker.on("exit", (code, signal) => {
        live.delete(worker);
        if (!listening) return reject(new Error(`a web process ended before it was serving (${signal ? `signal ${signal}` : `exit code ${code}`})`));
        if (stopping) return;
        const young = Date.now() - startedAt < QUICK_EXIT_MS;
        restartPauseMs = young ? Math.min(restartPauseMs * 2, 30_000) : 1_000;
        logger.error({ pid: worker.process.pid, code, signal, restartInMs: restartPauseMs }, "a web process ended; starting another");
        setTimeout(() => {
          if (stopping) return;
          fork().then(
            () => logger.info("the replacement web process is serving"),
            (error: unknown) => {
              if (!stopping) logger.error({ err: errorMessage(error) }, "a replacement web process did not start");
            },
          );
        }, restartPauseMs).unref();
      });
    });

  const stopAll = async () => {
    stopping = true;
    const exits = [...live].map((worker) => new Promise<void>((resolve) => (worker.isDead() ? resolve() : worker.once("exit", () => resolve()))));
    for (const worker of live) worker.process.kill("SIGTERM");
    // A web process takes up to 15 s to stop (it says so and exits itself); past that it is killed.
    const kill = setTimeout(() => {
      for (const worker of live) worker.process.kill("SIGKILL");
    }, 20_000);
    await Promise.all(exits);
    clearTimeout(kill);
  };

  const ready = Promise.all(Array.from({ length: count }, () => fork())).then(
    (urls) => {
      logger.info({ processes: count, pids: [...live].map((w) => w.process.pid) }, "web processes started");
      return urls[0] ?? "";
    },
    async (error: unknown) => {
      await stopAll();
      throw error;
    },
  );
  return { ready, close: stopAll };
}

function send(worker: Worker, message: Message) {
  if (worker.isConnected()) worker.send(message);
}

export type PrimaryLink = {
  config: Config;
  demo: boolean;
  /** The search limits, kept by the primary for every web process. */
  rateLimits: AppContext["rateLimits"];
  /** /metrics for every web process, gathered by the primary. */
  renderMetrics(): Promise<{ contentType: string; body: string }>;
  /** Tells the primary this process serves at `url`; its metrics registry is then reported to it. */
  listening(url: string, registry: Registry): void;
};

/**
 * A web process's side: waits for the primary's configuration and returns what is asked of it. When
 * the primary does not answer in time (it is stopping, say), a search is decided by a limiter of this
 * process's own, so no reader waits on it.
 */
export function connectToPrimary(limits: Limits): Promise<PrimaryLink> {
  let nextId = 0;
  const waiting = new Map<number, (message: Message | null) => void>();
  const ask = (message: Message & { id: number }, timeoutMs = ASK_TIMEOUT_MS): Promise<Message | null> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => {
        waiting.delete(message.id);
        resolve(null);
      }, timeoutMs);
      timer.unref();
      waiting.set(message.id, (reply) => {
        clearTimeout(timer);
        waiting.delete(message.id);
        resolve(reply);
      });
      if (!process.connected || !process.send) return waiting.get(message.id)?.(null);
      process.send(message);
    });
  const shared = (name: LimiterName): RateLimiter => {
    const local = createRateLimiter(limits[name]);
    return {
      take: async (key) => {
        const reply = await ask({ type: "oddwire:take", id: nextId++, limiter: name, key });
        return reply?.type === "oddwire:took" ? reply.decision : local.take(key);
      },
    };
  };
  return new Promise((resolve) => {
    process.on("message", (message: unknown) => {
      if (!isMessage(message)) return;
      if (message.type === "oddwire:start") {
        resolve({
          config: message.config,
          demo: message.demo,
          rateLimits: { search: shared("search"), suggestions: shared("suggestions") },
          renderMetrics: async () => {
            const reply = await ask({ type: "oddwire:metrics", id: nextId++ }, METRICS_TIMEOUT_MS);
            if (reply?.type === "oddwire:metrics-result") return { contentType: reply.contentType, body: reply.body };
            throw new Error(reply?.type === "oddwire:metrics-failed" ? reply.error : "the primary process did not answer");
          },
          listening: (url, registry) => {
            AggregatorRegistry.setRegistries([registry]);
            // Constructing one is what makes prom-client answer the primary's requests for this process's metrics.
            new AggregatorRegistry();
            process.send?.({ type: "oddwire:listening", url } satisfies Message);
          },
        });
      } else if ("id" in message) waiting.get(message.id)?.(message);
    });
    process.send?.({ type: "oddwire:hello" } satisfies Message);
  });
}
