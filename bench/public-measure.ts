import type { BenchDatabaseKind } from "./databases";
import { type DatabaseProcessMemory, percentile, type ProcessMemory } from "./measure";
import { startNginx, startNodeReference, wrk, type NodeReferenceFile, type ReferenceFile, type WrkResult } from "./reference";
import { CONNECTIONS, DURATION, fmt, out, sleep, UNCACHED_SAMPLES, WARM_UP } from "./public-settings";

// bench:public: the measurements (cache hits under load beside nginx, renders that miss the cache).

export type Page = { label: string; path: string; kind: "page" | "search" | "sitemap" };
export type Mode = "plain" | "br" | "304";
/**
 * `node`: the same answer from a bare node:http server, and `nodeAls` from one that has run an
 * AsyncLocalStorage (measured for the first page only).
 */
export type HitRow = { page: Page; mode: Mode; app: WrkResult; nginx: WrkResult; node?: WrkResult; nodeAls?: WrkResult; encoding: string; bytes: number };
export type RenderRow = { page: Page; p50: number; p99: number; bytes: number };

export type DatabaseRun = {
  kind: BenchDatabaseKind;
  name: string;
  stories: number;
  pending: number;
  seed: { seconds: number; insertSeconds: number; indexSeconds: number; vacuumSeconds: number; parallel: number };
  commonMatches: number;
  rareMatches: number;
  webProcesses: number;
  hits: HitRow[];
  renders: RenderRow[];
  memoryAfterHits: ProcessMemory[];
  memoryAfterRun: ProcessMemory[];
  /** The embedded server's processes after the run; empty on a PostgreSQL of one's own. */
  databaseMemoryAfterRun: DatabaseProcessMemory[];
  complaints: string[];
};

export type Answer = { ms: number; status: number; bytes: number; cache: string | null };

export async function timedGet(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  const started = performance.now();
  const response = await fetch(url, { redirect: "manual", headers });
  const body = await response.arrayBuffer();
  return { ms: performance.now() - started, status: response.status, bytes: body.byteLength, cache: response.headers.get("x-cache") };
}

/** The same URL under another page-cache key: the app ignores the extra query parameter. */
export function cacheBusted(url: string, n: number): string {
  return `${url}${url.includes("?") ? "&" : "?"}bench-nocache=${Date.now()}-${n}`;
}

/** `headers`: every header line as answered, but those Node writes itself (Date, Connection, Keep-Alive). */
export type Kept = { body: Buffer; type: string; etag: string; encoding: string; headers: [string, string][] };

/** The page as the cache keeps it, as answered to `acceptEncoding`: its exact bytes, type, ETag and encoding. */
export async function cachedBytes(url: string, acceptEncoding: string): Promise<Kept> {
  // Node's fetch would decompress: ask with node:http for the bytes as sent.
  const { get } = await import("node:http");
  return new Promise((resolve, reject) => {
    get(url, { headers: { "accept-encoding": acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        if (res.statusCode !== 200) return reject(new Error(`GET ${url} answered ${res.statusCode}`));
        resolve({
          body: Buffer.concat(chunks),
          type: String(res.headers["content-type"]),
          etag: String(res.headers.etag),
          encoding: String(res.headers["content-encoding"] ?? "identity"),
          headers: pairs(res.rawHeaders).filter(([name]) => !/^(date|connection|keep-alive|transfer-encoding)$/i.test(name)),
        });
      });
    }).on("error", reject);
  });
}

export function pairs(raw: string[]): [string, string][] {
  const lines: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) lines.push([raw[i]!, raw[i + 1]!]);
  return lines;
}

export const BROWSER_ENCODINGS = { "accept-encoding": "gzip, deflate, br" };

/**
 * Cache hits of each page, plain, br and 304, beside nginx serving the same bytes in the same run;
 * the first page's also beside a bare node:http server answering the same bytes and header lines.
 */
export async function measureHits(baseUrl: string, pages: Page[], workers: number): Promise<HitRow[]> {
  const files: ReferenceFile[] = [];
  const kept: { plain: Kept; br: Kept }[] = [];
  for (const [i, page] of pages.entries()) {
    const first = await timedGet(baseUrl + page.path); // into the cache
    if (first.status !== 200) throw new Error(`GET ${page.path} answered ${first.status}`);
    const plain = await cachedBytes(baseUrl + page.path, "identity");
    if (plain.encoding !== "identity") throw new Error(`GET ${page.path} with Accept-Encoding: identity answered ${plain.encoding}`);
    // A body too small to be worth compressing is kept and sent as it is, to browsers too. A page is
    // kept at first in the encoding of the reader who rendered it, and in br once a browser asks: the
    // bytes measured are those browsers get from then on.
    let br = await cachedBytes(baseUrl + page.path, BROWSER_ENCODINGS["accept-encoding"]);
    for (let tries = 0; br.encoding !== "br" && br.body.length >= 1_024 && tries < 50; tries++) {
      await sleep(20);
      br = await cachedBytes(baseUrl + page.path, BROWSER_ENCODINGS["accept-encoding"]);
    }
    kept.push({ plain, br });
    files.push(
      { name: `page${i}`, body: plain.body, contentType: plain.type },
      { name: `page${i}.${br.encoding}`, body: br.body, contentType: br.type, ...(br.encoding === "identity" ? {} : { contentEncoding: br.encoding }) },
    );
    out(`  ${page.path}: ${plain.body.length.toLocaleString("en")} bytes, ${br.body.length.toLocaleString("en")} as ${br.encoding}`);
  }
  const nginx = await startNginx(files, { workers });
  const nodeFiles: NodeReferenceFile[] = kept.flatMap(({ plain, br }, i) => [
    { name: `page${i}`, body: plain.body, etag: plain.etag, headers: plain.headers },
    { name: `page${i}.${br.encoding}`, body: br.body, etag: br.etag, headers: br.headers },
  ]);
  const bareNode = await startNodeReference(nodeFiles.slice(0, 2), { workers }).catch(async (error: unknown) => {
    await nginx.stop();
    throw error;
  });
  const bareNodeAls = await startNodeReference(nodeFiles.slice(0, 2), { workers, asyncLocalStorage: true }).catch(async (error: unknown) => {
    await Promise.all([nginx.stop(), bareNode.stop()]);
    throw error;
  });
  const rows: HitRow[] = [];
  try {
    for (const [i, page] of pages.entries()) {
      const { plain, br } = kept[i]!;
      const nginxEtag = (await fetch(`${nginx.url}/page${i}`)).headers.get("etag") ?? "";
      const runs: { mode: Mode; app: Record<string, string>; nginxPath: string; nginx: Record<string, string>; kept: Kept }[] = [
        { mode: "plain", app: {}, nginxPath: `page${i}`, nginx: {}, kept: plain },
        { mode: "br", app: BROWSER_ENCODINGS, nginxPath: `page${i}.${br.encoding}`, nginx: BROWSER_ENCODINGS, kept: br },
        { mode: "304", app: { "if-none-match": plain.etag }, nginxPath: `page${i}`, nginx: { "if-none-match": nginxEtag }, kept: plain },
      ];
      for (const run of runs) {
        // An entry is fresh for two seconds; then one request renders it again while the others are
        // answered the previous version: the run sees what production traffic sees.
        const revalidate = run.mode === "304";
        const app = await wrk(baseUrl + page.path, { connections: CONNECTIONS, seconds: DURATION, headers: run.app, revalidate });
        const reference = await wrk(`${nginx.url}/${run.nginxPath}`, { connections: CONNECTIONS, seconds: DURATION, headers: run.nginx, revalidate });
        const node = i === 0 ? await wrk(`${bareNode.url}/${run.nginxPath}`, { connections: CONNECTIONS, seconds: DURATION, headers: run.app, revalidate }) : undefined;
        const nodeAls = i === 0 ? await wrk(`${bareNodeAls.url}/${run.nginxPath}`, { connections: CONNECTIONS, seconds: DURATION, headers: run.app, revalidate }) : undefined;
        const share = app.revalidated ? `, ${fmt(notModifiedShare(app) * 100, 1)}% answered 304` : "";
        const nodeLine =
          node && nodeAls
            ? `, bare Node ${fmt(node.rps)} req/s (${fmt(node.rps / reference.rps, 2)} of nginx), with AsyncLocalStorage ${fmt(nodeAls.rps)} req/s (${fmt(nodeAls.rps / reference.rps, 2)})`
            : "";
        out(`  ${page.label} ${run.mode}: app ${fmt(app.rps)} req/s, nginx ${fmt(reference.rps)} req/s, ratio ${fmt(app.rps / reference.rps, 2)}${share}${nodeLine}`);
        rows.push({ page, mode: run.mode, app, nginx: reference, ...(node ? { node } : {}), ...(nodeAls ? { nodeAls } : {}), encoding: run.kept.encoding, bytes: run.kept.body.length });
      }
    }
  } finally {
    await Promise.all([nginx.stop(), bareNode.stop(), bareNodeAls.stop()]);
  }
  return rows;
}

export function notModifiedShare(result: WrkResult): number {
  const r = result.revalidated;
  return r && r.notModified + r.other > 0 ? r.notModified / (r.notModified + r.other) : NaN;
}

/**
 * Renders that miss the page cache, one at a time once the process is warm: p50 and p99. Each request
 * comes from an address of its own (X-Forwarded-For, believed from loopback as behind a proxy), so that
 * the per-client search allowance measures nothing but the search.
 */
export async function measureRenders(baseUrl: string, targets: Page[]): Promise<RenderRow[]> {
  const rows: RenderRow[] = [];
  let client = 0;
  for (const target of targets) {
    const samples: number[] = [];
    let bytes = 0;
    for (let i = 0; i < UNCACHED_SAMPLES + WARM_UP; i++) {
      client++;
      const from = { "x-forwarded-for": `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}` };
      let result = await timedGet(cacheBusted(baseUrl + target.path, i), { ...BROWSER_ENCODINGS, ...from });
      // Should the allowance still refuse (another proxy setting): wait as told, then measure.
      while (result.status === 429) {
        await sleep(1_100);
        result = await timedGet(cacheBusted(baseUrl + target.path, i), { ...BROWSER_ENCODINGS, ...from });
      }
      if (result.status !== 200) throw new Error(`GET ${target.path} (uncached) answered ${result.status}`);
      if (result.cache !== "MISS") throw new Error(`GET ${target.path} (uncached) was not a cache miss (X-Cache: ${result.cache})`);
      if (i >= WARM_UP) samples.push(result.ms);
      bytes = result.bytes;
    }
    const row = { page: target, p50: percentile(samples, 50), p99: percentile(samples, 99), bytes };
    out(`  ${target.label} uncached: p50 ${fmt(row.p50, 1)} ms, p99 ${fmt(row.p99, 1)} ms`);
    rows.push(row);
  }
  return rows;
}

