import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type ProcessMemory, processTreeMemory } from "./measure";
import { sleep } from "./public-settings";

// bench:public: the server under measure, in its own process(es).

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export type Server = { url: string; pid: number; log: string; webProcesses: number; stop: () => Promise<void> };

/**
 * `bin/oddwire.mjs serve` as production runs it, with the app's own settings replaced by `settings`;
 * resolves once /readyz answers and every process the server forks has started.
 */
export async function startServer(settings: Record<string, string>, logFile: string): Promise<Server> {
  const { envSchema } = await import("~/server/config");
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(envSchema.shape)) delete env[name];
  Object.assign(env, settings);
  if (process.env.WEB_CONCURRENCY?.trim()) env.WEB_CONCURRENCY = process.env.WEB_CONCURRENCY.trim();

  const log = createWriteStream(logFile);
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, "bin", "oddwire.mjs"), "serve"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  const pid = child.pid!;
  const url = `http://127.0.0.1:${settings.PORT}`;
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const tree = processTreeMemory(pid);
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await Promise.race([exited, sleep(20_000)]);
        // Still running: the processes this run started, by id (a forked process ends with its primary).
        await sleep(child.exitCode === null ? 0 : 2_000);
        for (const p of tree) {
          if (processTreeMemory(p.pid)[0]?.command !== p.command) continue;
          try {
            process.kill(p.pid, "SIGKILL");
          } catch {
            // gone meanwhile
          }
        }
      }
      await new Promise<void>((resolve) => log.end(resolve));
    })());
  const tail = () => readFileSync(logFile, "utf8").split("\n").slice(-20).join("\n");

  try {
    const started = performance.now();
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server exited (${child.exitCode ?? child.signalCode}):\n${tail()}`);
      if (performance.now() - started > 180_000) throw new Error(`the server was not ready within 3 minutes:\n${tail()}`);
      const ready = await fetch(`${url}/readyz`).then((r) => r.ok, () => false);
      if (ready) break;
      await sleep(200);
    }
    // Forked web processes answer as each starts listening: wait until no more appear, and the last
    // one has had a moment to listen.
    let count = processTreeMemory(pid).length;
    for (let stable = 0; stable < 10; stable++) {
      await sleep(200);
      const now = processTreeMemory(pid).length;
      if (now !== count) stable = -1;
      count = now;
    }
    return { url, pid, log: logFile, webProcesses: Math.max(1, forkedWebProcesses(processTreeMemory(pid)).length), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The Node processes the server forked to serve (node:cluster); none when it serves by itself. */
export function forkedWebProcesses(tree: ProcessMemory[]): ProcessMemory[] {
  return tree.filter((p) => p.parent !== null && /\.(m?js|ts)(\s|$)/.test(p.command));
}

/** Lines of the server's log at warning level or above (pino's JSON; anything else too). */
export function serverComplaints(logFile: string): string[] {
  return readFileSync(logFile, "utf8")
    .split("\n")
    .filter((line) => {
      if (!line.trim()) return false;
      try {
        return ((JSON.parse(line) as { level?: number }).level ?? 50) >= 40;
      } catch {
        return true;
      }
    });
}

