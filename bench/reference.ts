// The reference and the load generator of the public-site benchmark: Debian's nginx serving the very
// same bytes as the page under test, and wrk (1 thread, N connections), both installed from Debian's
// packages when missing (apt-get, as root or through sudo).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "~/test/http-test-server";

/** Installs Debian's package for `command` when the command is missing; throws with what to do when it cannot. */
export function ensureTool(command: string, debianPackage: string): string {
  const found = spawnSync("sh", ["-c", `command -v ${command} || ls /usr/sbin/${command} 2>/dev/null`], { encoding: "utf8" }).stdout.trim().split("\n")[0];
  if (found) return found;
  const asRoot = process.getuid?.() === 0 ? [] : ["sudo", "-n"];
  const run = (args: string[]) => spawnSync(asRoot[0] ?? args[0]!, asRoot.length ? [...asRoot.slice(1), ...args] : args.slice(1), { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  run(["apt-get", "update", "-qq"]);
  const installed = run(["apt-get", "install", "-y", "-qq", debianPackage]);
  if (installed.status !== 0) throw new Error(`${command} is missing and apt-get could not install ${debianPackage}: install it and run again`);
  // The package may start its own service; the benchmark runs its own instance on a free port.
  if (debianPackage === "nginx") spawnSync(asRoot[0] ?? "service", asRoot.length ? [...asRoot.slice(1), "service", "nginx", "stop"] : ["nginx", "stop"], { stdio: "ignore" });
  return ensureTool(command, debianPackage);
}

export type ReferenceFile = { name: string; body: Buffer; contentType: string; contentEncoding?: string };

/** nginx's version line (`nginx/1.22.1`). */
export function nginxVersion(): string {
  const nginx = ensureTool("nginx", "nginx");
  const run = spawnSync(nginx, ["-v"], { encoding: "utf8" });
  return /nginx\/[\w.]+/.exec(`${run.stderr}${run.stdout}`)?.[0] ?? "nginx";
}

/**
 * nginx serving `files` at /{name}, each with its Content-Type and, for a precompressed body, its
 * Content-Encoding: the same bytes the app answers. `workers` worker processes (default 1): as many
 * as the app has web processes.
 */
export async function startNginx(files: ReferenceFile[], options: { workers?: number } = {}): Promise<{ url: string; stop: () => Promise<void> }> {
  const nginx = ensureTool("nginx", "nginx");
  const dir = mkdtempSync(path.join(os.tmpdir(), "oddwire-bench-nginx-"));
  const port = await freePort();
  const locations = files
    .map((file) => {
      writeFileSync(path.join(dir, file.name), file.body);
      const encoding = file.contentEncoding ? `add_header Content-Encoding ${file.contentEncoding}; add_header Vary Accept-Encoding;` : "";
      return `location = /${file.name} { default_type "${file.contentType}"; ${encoding} }`;
    })
    .join("\n    ");
  writeFileSync(
    path.join(dir, "nginx.conf"),
    `worker_processes ${options.workers ?? 1};
error_log ${path.join(dir, "error.log")} warn;
pid ${path.join(dir, "nginx.pid")};
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  client_body_temp_path ${dir}; proxy_temp_path ${dir}; fastcgi_temp_path ${dir}; uwsgi_temp_path ${dir}; scgi_temp_path ${dir};
  server {
    listen 127.0.0.1:${port};
    root ${dir};
    ${locations}
  }
}
`,
  );
  const child: ChildProcess = spawn(nginx, ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-g", "daemon off;"], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const ok = await fetch(`${url}/${files[0]!.name}`).then((r) => r.ok, () => false);
    if (ok) break;
    if (i > 100 || child.exitCode !== null) throw new Error(`nginx did not start: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    stop: async () => {
      child.kill("SIGQUIT");
      if (child.exitCode === null) await new Promise((resolve) => child.once("exit", resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type NodeReferenceFile = { name: string; body: Buffer; etag: string; headers: [string, string][] };

/**
 * A bare node:http server (bench/node-reference.mjs) answering `files` at /{name} with the very same
 * bytes and header lines the app answered, and a 304 for a matching If-None-Match, in `workers`
 * processes: what Node's HTTP stack itself reaches on this machine, beside the app and nginx. With
 * `asyncLocalStorage`, after an AsyncLocalStorage has been run once, as in every process of the app.
 */
export async function startNodeReference(
  files: NodeReferenceFile[],
  options: { workers?: number; asyncLocalStorage?: boolean } = {},
): Promise<{ url: string; stop: () => Promise<void> }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "oddwire-bench-node-"));
  const port = await freePort();
  const manifest = {
    port,
    workers: options.workers ?? 1,
    asyncLocalStorage: options.asyncLocalStorage === true,
    files: files.map((file) => {
      const bodyFile = path.join(dir, file.name);
      writeFileSync(bodyFile, file.body);
      return { name: file.name, bodyFile, etag: file.etag, headers: file.headers };
    }),
  };
  writeFileSync(path.join(dir, "manifest.json"), JSON.stringify(manifest));
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), "node-reference.mjs");
  const child: ChildProcess = spawn(process.execPath, [script, path.join(dir, "manifest.json")], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const ok = await fetch(`${url}/${files[0]!.name}`).then((r) => r.ok, () => false);
    if (ok) break;
    if (i > 100 || child.exitCode !== null) throw new Error(`the bare Node reference did not start: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type WrkResult = {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** With `revalidate`: how many answers were 304 Not Modified, and how many were not. */
  revalidated?: { notModified: number; other: number };
};

// Revalidates with If-None-Match, as a browser does, but naming every ETag answered so far (the last
// eight): each web process, and each render of a page, has its own, where a browser sends only the
// last it was given. Counts the answers that were 304, and those that were not.
const REVALIDATE_LUA = `
local tags = {}
local request_text = nil
not_modified, other = 0, 0
local threads = {}
function setup(thread) table.insert(threads, thread) end
local function build()
  local headers = {}
  for name, value in pairs(wrk.headers) do
    if string.lower(name) ~= "if-none-match" then headers[name] = value
    elseif #tags == 0 then table.insert(tags, value) end
  end
  if #tags > 0 then headers["If-None-Match"] = table.concat(tags, ", ") end
  request_text = wrk.format(nil, nil, headers)
end
function request()
  if request_text == nil then build() end
  return request_text
end
function response(status, headers, body)
  if status == 304 then not_modified = not_modified + 1 else other = other + 1 end
  local tag = headers["ETag"] or headers["etag"] or headers["Etag"]
  if tag == nil then return end
  for _, known in ipairs(tags) do if known == tag then return end end
  table.insert(tags, tag)
  if #tags > 8 then table.remove(tags, 1) end
  build()
end
function done(summary, latency, requests)
  local a, b = 0, 0
  for _, thread in ipairs(threads) do a = a + thread:get("not_modified"); b = b + thread:get("other") end
  io.write(string.format("revalidated: %d not modified, %d other\\n", a, b))
end
`;

/**
 * wrk -t1 -cN -dDs --latency against `url` with `headers`; latencies in ms. With `revalidate`, each
 * request carries the ETags answered before it (see REVALIDATE_LUA), and the 304s are counted.
 */
export async function wrk(
  url: string,
  options: { connections: number; seconds: number; headers?: Record<string, string>; revalidate?: boolean },
): Promise<WrkResult> {
  const command = ensureTool("wrk", "wrk");
  const headerArgs = Object.entries(options.headers ?? {}).flatMap(([name, value]) => ["-H", `${name}: ${value}`]);
  const scriptDir = options.revalidate ? mkdtempSync(path.join(os.tmpdir(), "oddwire-bench-wrk-")) : undefined;
  const scriptArgs = scriptDir ? ["-s", path.join(scriptDir, "revalidate.lua")] : [];
  if (scriptDir) writeFileSync(path.join(scriptDir, "revalidate.lua"), REVALIDATE_LUA);
  const child = spawn(command, ["-t1", `-c${options.connections}`, `-d${options.seconds}s`, "--latency", ...scriptArgs, ...headerArgs, url], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (scriptDir) rmSync(scriptDir, { recursive: true, force: true });
  if (code !== 0) throw new Error(`wrk failed: ${stderr}`);
  const text = stdout;
  const number = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? NaN);
  const ms = (label: string) => {
    const match = new RegExp(`^\\s*${label}%\\s+([\\d.]+)(us|ms|s)\\s*$`, "m").exec(text);
    if (!match) return NaN;
    const value = Number(match[1]);
    return match[2] === "us" ? value / 1000 : match[2] === "s" ? value * 1000 : value;
  };
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  return {
    rps: number(/Requests\/sec:\s+([\d.]+)/),
    p50: ms("50"),
    p99: ms("99"),
    requests: number(/(\d+) requests in/),
    non2xx: number(/Non-2xx or 3xx responses: (\d+)/) || 0,
    errors: socketErrors ? socketErrors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
    ...(options.revalidate ? { revalidated: revalidatedIn(text) } : {}),
  };
}

function revalidatedIn(text: string): { notModified: number; other: number } {
  const match = /^revalidated: (\d+) not modified, (\d+) other$/m.exec(text);
  if (!match) throw new Error(`wrk's revalidation script reported nothing:\n${text}`);
  return { notModified: Number(match[1]), other: Number(match[2]) };
}
