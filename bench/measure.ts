// Small helpers the benchmarks share.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** The p-th percentile (0-100) of the values, nearest rank; NaN when there are none. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** A database URL fit to print: its password replaced by ***. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return url;
  }
}

export type ProcessMemory = {
  pid: number;
  /** The process it was started by; null for the root of the tree. */
  parent: number | null;
  /** The script it runs and its arguments (`oddwire.mjs serve`), or its name. */
  command: string;
  rssMiB: number;
};

/**
 * VmRSS of a process and of every process under it (its children, read from
 * /proc/<pid>/task/<tid>/children, recursively), root first; a process that has ended is left out.
 * Linux only.
 */
export function processTreeMemory(pid: number): ProcessMemory[] {
  const found: ProcessMemory[] = [];
  const visit = (id: number, parent: number | null) => {
    let status: string;
    try {
      status = readFileSync(`/proc/${id}/status`, "utf8");
    } catch {
      return; // ended meanwhile
    }
    const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN);
    const name = /^Name:\s+(.*)$/m.exec(status)?.[1]?.trim() ?? String(id);
    found.push({ pid: id, parent, command: commandOf(id) ?? name, rssMiB: kb / 1024 });
    for (const child of childrenOf(id)) visit(child, id);
  };
  visit(pid, null);
  return found;
}

/** The pids a process started (read from /proc/<pid>/task/<tid>/children), smallest first; none when it has ended. */
export function childrenOf(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const children = new Set<number>();
  for (const task of tasks) {
    try {
      for (const word of readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").split(/\s+/)) if (word) children.add(Number(word));
    } catch {
      // the thread ended meanwhile
    }
  }
  return [...children].sort((a, b) => a - b);
}

// `node --flags /path/to/bin/oddwire.mjs serve` -> "oddwire.mjs serve": the script and what follows it.
function commandOf(pid: number): string | undefined {
  let argv: string[];
  try {
    argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
  } catch {
    return undefined;
  }
  const script = argv.findIndex((arg, i) => i > 0 && !arg.startsWith("-") && /\.(m?js|ts)$/.test(arg));
  if (script === -1) return argv.length > 0 ? path.basename(argv[0]!) : undefined;
  return [path.basename(argv[script]!), ...argv.slice(script + 1)].join(" ");
}

/** Proportional set size of a process (its own pages, plus each shared page divided by the processes sharing it), from /proc/<pid>/smaps_rollup; NaN when it cannot be read. */
export function pssMiB(pid: number): number {
  try {
    return Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))?.[1] ?? NaN) / 1024;
  } catch {
    return NaN;
  }
}

export type DatabaseProcessMemory = { pid: number; command: string; pssMiB: number; rssMiB: number };

/**
 * Every process of the embedded PostgreSQL server of `dataDir`: the postmaster (the first line of
 * its postmaster.pid) first, then the processes under it, each with its PSS and RSS. The cluster is
 * DATA_DIR/postgres/pgdata, or where DATA_DIR/postgres.location says. Empty when it is not running.
 * Linux only. PSS, not RSS: the server's processes share its buffers, and RSS would count them once a process.
 */
export function embeddedDatabaseMemory(dataDir: string): DatabaseProcessMemory[] {
  let home = path.join(dataDir, "postgres");
  try {
    home = readFileSync(path.join(dataDir, "postgres.location"), "utf8").trim();
  } catch {
    // the cluster lives in DATA_DIR
  }
  let postmaster: number;
  try {
    postmaster = Number.parseInt(readFileSync(path.join(home, "pgdata", "postmaster.pid"), "utf8").split("\n")[0] ?? "", 10);
  } catch {
    return [];
  }
  if (!Number.isInteger(postmaster)) return [];
  // A process ending meanwhile (a zombie has no memory left) is left out.
  return processTreeMemory(postmaster)
    .map((p) => ({ pid: p.pid, command: p.command.trim(), pssMiB: pssMiB(p.pid), rssMiB: p.rssMiB }))
    .filter((p) => !Number.isNaN(p.pssMiB) && !Number.isNaN(p.rssMiB));
}

/**
 * Replaces the text between `<!-- {name}:start -->` and `<!-- {name}:end -->` with `body`. A block
 * not there yet is added after the last block whose name starts with `group` (blocks of one kind
 * stay together); with no such block either, this throws: the document says where results go.
 */
export function writeMarkedBlock(document: string, options: { name: string; group: string; body: string }): string {
  const start = `<!-- ${options.name}:start -->`;
  const end = `<!-- ${options.name}:end -->`;
  const block = `${start}\n${options.body.replace(/\n+$/, "")}\n${end}`;
  const from = document.indexOf(start);
  if (from !== -1) {
    const to = document.indexOf(end, from);
    if (to === -1) throw new Error(`"${start}" has no "${end}" after it`);
    return document.slice(0, from) + block + document.slice(to + end.length);
  }
  const ends = [...document.matchAll(/<!-- (\S+):end -->/g)].filter((m) => m[1]!.startsWith(options.group));
  const last = ends.at(-1);
  if (!last) throw new Error(`no "<!-- ${options.group}...:end -->" marker to add "${options.name}" after`);
  const after = last.index + last[0].length;
  return `${document.slice(0, after)}\n\n${block}${document.slice(after)}`;
}

/** A whole number from the environment, at least `min`; `fallback` when unset. */
export function intFromEnv(name: string, fallback: number, min: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer >= ${min} (got "${raw}")`);
  return value;
}
