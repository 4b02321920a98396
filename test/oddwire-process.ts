import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { PROJECT_ROOT } from "~/lib/project-root";
import { reaching } from "./reaching";

/** The command as it is installed: `bin/oddwire.mjs`. */
export const BIN = path.join(PROJECT_ROOT, "bin", "oddwire.mjs");

export type OddwireProcess = {
  child: ChildProcess;
  /** Everything it has printed so far, stdout and stderr as they came. */
  output: () => string;
  /** Resolves when it has ended, with its exit code or the signal that ended it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Whether it is still running. */
  running: () => boolean;
  /**
   * Waits until it has printed a match of `pattern` and returns the match; fails naming `what` after
   * `timeoutMs`, or at once, with what it printed, should the process end first.
   */
  printed: (pattern: RegExp, what: string, timeoutMs?: number) => Promise<RegExpExecArray>;
};

/**
 * Starts `bin/oddwire.mjs args` in a process of its own, with `env` as its whole environment, run by
 * this Node (or as the file itself, by its first line, when `asFile`: as `npm start` runs it).
 */
export function startOddwire(args: string[], env: NodeJS.ProcessEnv, options: { asFile?: boolean } = {}): OddwireProcess {
  const [command, argv] = options.asFile ? [BIN, args] : [process.execPath, [BIN, ...args]];
  const child = spawn(command, argv, { cwd: PROJECT_ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    child,
    output: () => output,
    exited,
    running,
    printed: (pattern, what, timeoutMs = 90_000) => {
      const already = pattern.exec(output);
      if (already) return Promise.resolve(already);
      const ended = exited.then(({ code, signal }) => {
        throw new Error(`oddwire ${args.join(" ")} ended (${code ?? signal}) before ${what}:\n${output}`);
      });
      const match = reaching(() => pattern.exec(output), (found): found is RegExpExecArray => found !== null, what, timeoutMs);
      return Promise.race([match, ended]);
    },
  };
}
