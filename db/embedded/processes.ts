import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/** Whether a process with this pid exists (one of another user counts: kill answers EPERM). */
export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * When the process started (clock ticks since boot, from /proc), or "" where there is no /proc.
 * A pid with another start time is another process that reused the number.
 */
export function startTimeOf(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces) start at field 3; start time is field 22.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? "";
  } catch {
    return "";
  }
}

/** "pid starttime": names this very process, so a later reader can tell it from a reused pid. */
export function processStamp(pid = process.pid): string {
  return `${pid} ${startTimeOf(pid)}`.trim();
}

/** Whether the process a stamp names is still the one running. */
export function stampIsLive(stamp: string): boolean {
  const [pidText, startTime] = stamp.trim().split(/\s+/);
  const pid = Number(pidText);
  if (!isAlive(pid)) return false;
  if (!startTime) return true;
  const now = startTimeOf(pid);
  return now === "" || now === startTime;
}

/** The working directory of a process (Linux), or undefined when it cannot be read. */
export function cwdOf(pid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return undefined;
  }
}

/** Pids of the processes whose working directory is `dir` (Linux): a postmaster and its children live in their data directory. */
export function processesIn(dir: string): number[] {
  if (process.platform !== "linux") return [];
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => cwdOf(pid) === dir);
}

/** The command line of a process as ps shows it (for systems without /proc), or "" when it is gone. */
export function commandOf(pid: number): string {
  try {
    return execFileSync("ps", ["-o", "command=", "-p", String(pid)], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return "";
  }
}
