import { randomUUID } from "node:crypto";
import pg from "pg";
import type { Database } from "./client";

/**
 * Change notices between processes on one PostgreSQL database (LISTEN/NOTIFY): a web process that
 * changes what the public pages show says so, and every other web process drops its cached pages
 * (decision 004). Delivered after the sender's transaction commits, to every listening connection.
 */
export const PUBLIC_PAGES_CHANNEL = "oddwire_public_pages";

/** Tells every listener that public pages changed; `origin` names the sender, which already knows. */
export async function notifyPublicPagesChanged(database: Database, origin: string): Promise<void> {
  await database.pool.query("SELECT pg_notify($1, $2)", [PUBLIC_PAGES_CHANNEL, origin]);
}

export type ChangeListener = {
  /** This listener's own name: notices it sent itself carry it. */
  origin: string;
  close(): Promise<void>;
};

/**
 * Listens for public-page changes on a connection of its own. `onChange` is called for each notice
 * from another origin, and once more whenever the connection is made again after a loss (notices
 * sent meanwhile were missed, so anything kept may be stale). A lost connection is retried with a
 * growing pause, up to `maxRetryMs`; `onError` is told why.
 */
export async function listenForPublicPageChanges(options: {
  connectionString: string;
  /** The name this process's own notices carry (notifyPublicPagesChanged's origin); a new one by default. */
  origin?: string;
  onChange: () => void;
  onError?: (error: Error) => void;
  maxRetryMs?: number;
}): Promise<ChangeListener> {
  const origin = options.origin ?? randomUUID();
  const maxRetryMs = options.maxRetryMs ?? 10_000;
  let client: pg.Client | undefined;
  let closed = false;
  let retryMs = 250;
  let retryTimer: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: options.connectionString });
    next.on("notification", (notice) => {
      if (notice.channel === PUBLIC_PAGES_CHANNEL && notice.payload !== origin) options.onChange();
    });
    next.on("error", (error) => {
      options.onError?.(error);
      lost(next);
    });
    next.on("end", () => lost(next));
    await next.connect();
    await next.query(`LISTEN ${PUBLIC_PAGES_CHANNEL}`);
    if (closed) {
      await next.end();
      return;
    }
    client = next;
    retryMs = 250;
  };

  const lost = (which: pg.Client) => {
    if (closed || client !== which) return;
    client = undefined;
    which.end().catch(() => undefined);
    schedule();
  };

  const schedule = () => {
    retryTimer = setTimeout(() => {
      connect().then(
        // Whatever changed while no one listened is unknown: treat it as a change.
        () => options.onChange(),
        (error: unknown) => {
          options.onError?.(error as Error);
          retryMs = Math.min(retryMs * 2, maxRetryMs);
          if (!closed) schedule();
        },
      );
    }, retryMs);
    retryTimer.unref();
  };

  await connect();
  return {
    origin,
    close: async () => {
      closed = true;
      clearTimeout(retryTimer);
      const open = client;
      client = undefined;
      await open?.end().catch(() => undefined);
    },
  };
}
