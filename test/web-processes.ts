import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { PROJECT_ROOT } from "~/lib/project-root";

// For tests that start `serve` as real processes: the build they serve, requests that each reach the
// next web process, and the web processes a primary forked.

export type Answer = { status: number; body: string; cache: string | undefined; etag: string | undefined };

/** A GET with no Accept-Encoding (the body as rendered), on a connection of its own, so that a cluster hands each to the next web process. */
export function getAlone(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false, headers }, (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, body, cache: response.headers["x-cache"] as string | undefined, etag: response.headers.etag }),
        );
      })
      .on("error", reject);
  });
}

/** Makes the production build when it is missing or older than the sources (scripts/ensure-build.mjs). */
export function ensureWebBuild(): void {
  const build = spawnSync(process.execPath, [path.join(PROJECT_ROOT, "scripts", "ensure-build.mjs")], { cwd: PROJECT_ROOT, encoding: "utf8" });
  if (build.status !== 0) throw new Error(`the build failed:\n${build.stdout}${build.stderr}`);
}

/** The pids of the processes `pid` started, from /proc. */
export function childrenOf(pid: number): number[] {
  const tasks = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
  return tasks ? tasks.split(/\s+/).map(Number) : [];
}

const commandOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");

/** The web processes a primary forked (server/processes/web-process.mjs). */
export function webProcessesOf(primary: number): number[] {
  return childrenOf(primary).filter((pid) => commandOf(pid).includes("web-process.mjs"));
}
