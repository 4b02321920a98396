import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { MaintenancePage } from "~/app/components/maintenance-page";
import type { Database } from "~/db/client";

/** How long a visitor's browser waits before asking again, while the database is down. */
export const MAINTENANCE_RETRY_SECONDS = 30;

/** The maintenance page as bytes, rendered once at start-up. */
export function maintenanceHtml(retryAfterSeconds = MAINTENANCE_RETRY_SECONDS): Buffer {
  return Buffer.from(`<!doctype html>${renderToStaticMarkup(createElement(MaintenancePage, { retryAfterSeconds }))}`);
}

/** True when the database does not answer a trivial query within `timeoutMs`. */
export async function databaseIsDown(database: Pick<Database, "exec">, timeoutMs = 2_000): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), timeoutMs)));
  try {
    return (await Promise.race([database.exec("SELECT 1").then(() => "up" as const), timedOut])) === "timeout";
  } catch {
    return true;
  } finally {
    clearTimeout(timer);
  }
}
