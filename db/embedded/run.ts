import { spawn, spawnSync } from "node:child_process";

/** The system user the database programs run as; null means this process's own user. */
export type DbUser = { name: string; uid: number; gid: number } | null;

/** The environment the database programs get: nothing of ours (no secrets), a C locale. */
function programEnv(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", LC_ALL: "C", LANG: "C", TZ: process.env.TZ ?? "UTC" };
}

/** Runs a program (as `user` when given) and returns its exit code and combined output. */
export function run(
  command: string,
  args: string[],
  options: { user: DbUser; cwd: string; input?: string; timeoutMs?: number },
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: programEnv(),
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      ...(options.user ? { uid: options.user.uid, gid: options.user.gid } : {}),
      timeout: options.timeoutMs ?? 120_000,
    });
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** Whether `user` may look inside `dir` (every directory on the way must let it pass). */
export function userCanEnter(user: DbUser, dir: string): boolean {
  if (!user) return true;
  const result = spawnSync("/bin/sh", ["-c", 'test -x "$1" && test -r "$1"', "sh", dir], { uid: user.uid, gid: user.gid, env: programEnv() });
  return result.status === 0;
}

/** Whether `user` can run `program` where it is. */
export function userCanRun(user: DbUser, program: string): boolean {
  if (!user) return true;
  const result = spawnSync(program, ["--version"], { uid: user.uid, gid: user.gid, env: programEnv(), cwd: "/" });
  return result.status === 0;
}
