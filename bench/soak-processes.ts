import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, readFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { PROJECT_ROOT } from "~/lib/project-root";

// The soak test's processes: \`bin/oddwire.mjs serve\` with a ROLE, its log in a file, stopped or waited for.

export type Proc = { name: string; child: ChildProcess; log: string; memory: { start: number | null; peak: number; end: number | null }; killed: boolean };

export function startProcess(name: string, role: "web" | "worker", env: NodeJS.ProcessEnv, logDir: string): Proc {
  const log = path.join(logDir, `${name}.log`);
  const stream = createWriteStream(log);
  const child = spawn(process.execPath, [path.join(PROJECT_ROOT, "bin", "oddwire.mjs"), "serve"], {
    cwd: PROJECT_ROOT,
    env: { ...env, ROLE: role },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.pipe(stream);
  child.stderr!.pipe(stream);
  return { name, child, log, memory: { start: null, peak: 0, end: null }, killed: false };
}

/** The log lines at error level or above (pino's JSON: level >= 50), and the warnings by message. */
export function readLog(proc: Proc): { errors: string[]; warnings: Map<string, number> } {
  const errors: string[] = [];
  const warnings = new Map<string, number>();
  for (const line of readFileSync(proc.log, "utf8").split("\n")) {
    if (!line.startsWith("{")) {
      if (line.trim()) errors.push(line.slice(0, 300));
      continue;
    }
    try {
      const entry = JSON.parse(line) as { level?: number; msg?: string; err?: unknown };
      if ((entry.level ?? 0) >= 50) errors.push(line.slice(0, 400));
      else if (entry.level === 40) warnings.set(entry.msg ?? "?", (warnings.get(entry.msg ?? "?") ?? 0) + 1);
    } catch {
      errors.push(line.slice(0, 300));
    }
  }
  return { errors, warnings };
}

export async function stopProcess(proc: Proc): Promise<void> {
  if (proc.killed || proc.child.exitCode !== null) return;
  const exited = new Promise((resolve) => proc.child.once("exit", resolve));
  proc.child.kill("SIGTERM");
  await Promise.race([exited, sleep(20_000).then(() => proc.child.kill("SIGKILL"))]);
}

export async function waitHealthy(base: string, proc: Proc): Promise<void> {
  for (let waited = 0; waited < 120_000; waited += 250) {
    if (proc.child.exitCode !== null) throw new Error(`${proc.name} exited (${proc.child.exitCode}); see ${proc.log}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not yet listening
    }
    await sleep(250);
  }
  throw new Error(`${proc.name} did not become healthy; see ${proc.log}`);
}
