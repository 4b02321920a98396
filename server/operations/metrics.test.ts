import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, test } from "vitest";
import { makeJob, makeSource } from "~/db/testing/factories";
import { feedProcessingLog } from "~/db/schema";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { createServer } from "node:http";
import { AggregatorRegistry, collectDefaultMetrics, Counter, Histogram, Registry } from "prom-client";
import { createMetrics, routeLabel, SeriesCounter, SeriesHistogram } from "./metrics";
import { createPublicCache } from "../http/public-cache";

const t = testDatabaseForFile();
let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

describe("route labels", () => {
  test.each([
    ["/", "/"],
    ["/story/goat-elected-mayor-12", "/story/:slug"],
    ["/story/goat-elected-mayor-12.data", "/story/:slug (data)"],
    ["/category/animals", "/category/:slug"],
    ["/category/animals/rss.xml", "/category/:slug/rss.xml"],
    ["/img/3/abcdef12/800", "/img/*"],
    ["/assets/app-1234.js", "/assets/*"],
    ["/admin/stories", "/admin/stories"],
    ["/admin/api/jobs/9f8e", "/admin/api/*"],
    ["/api/auth/sign-in/email", "/api/auth/*"],
    ["/api/suggestions", "/api/suggestions"],
    ["/wp-login.php", "other"],
    ["/admin/../../etc/passwd", "other"],
  ])("%s is %s", (path, label) => {
    expect(routeLabel(path)).toBe(label);
  });
});

describe("the request counters", () => {
  // Counted with plain arithmetic on series kept by their callers, they must read exactly as prom-client's own.
  const buckets = [0.001, 0.01, 0.1];
  const observations: [Record<string, string>, number][] = [
    [{ route: "/", method: "GET" }, 0.0004],
    [{ route: "/", method: "GET" }, 0.001],
    [{ route: "/", method: "GET" }, 0.05],
    [{ route: "/", method: "GET" }, 3],
    [{ route: "/story/:slug", method: "HEAD" }, 0.002],
  ];
  function ours() {
    const registry = new Registry();
    const latency = new SeriesHistogram(registry, { name: "t_seconds", help: "latency", buckets });
    const requests = new SeriesCounter(registry, { name: "t_total", help: "requests" });
    const kept = new Map<string, { l: ReturnType<typeof latency.series>; r: ReturnType<typeof requests.series> }>();
    for (const [labels, value] of observations) {
      const key = JSON.stringify(labels);
      if (!kept.has(key)) kept.set(key, { l: latency.series(labels), r: requests.series(labels) });
      latency.observe(kept.get(key)!.l, value);
      kept.get(key)!.r.value += 1;
    }
    return registry;
  }
  function promClients() {
    const registry = new Registry();
    const latency = new Histogram({ name: "t_seconds", help: "latency", labelNames: ["route", "method"], buckets, registers: [registry] });
    const requests = new Counter({ name: "t_total", help: "requests", labelNames: ["route", "method"], registers: [registry] });
    for (const [labels, value] of observations) {
      latency.labels(labels).observe(value);
      requests.labels(labels).inc();
    }
    return registry;
  }

  test("read as prom-client's Counter and Histogram would, in one process and gathered from several", async () => {
    const text = await ours().metrics();
    expect(text).toBe(await promClients().metrics());
    expect(text).toContain('t_seconds_bucket{le="0.001",route="/",method="GET"} 2');
    expect(text).toContain('t_seconds_bucket{le="+Inf",route="/",method="GET"} 4');
    expect(text).toContain('t_seconds_sum{route="/",method="GET"} 3.0514');
    const gathered = (registries: Registry[]) => Promise.all(registries.map((r) => r.getMetricsAsJSON())).then((all) => AggregatorRegistry.aggregate(all).metrics());
    expect(await gathered([ours(), ours()])).toBe(await gathered([promClients(), promClients()]));
  });
});

describe("/metrics", () => {
  test("pages answered from the page cache before any routing are counted, as hits", async () => {
    const metrics = createMetrics({ database: t.database, repo: t.repos.metrics });
    const cache = createPublicCache();
    const page = { render: async () => new Response("<p>story</p>", { headers: { "Content-Type": "text/html; charset=utf-8" } }), pass: () => Promise.reject(new Error("kept")) };
    // As server/http/web.ts does: a fresh page answered by the node handler itself, and counted then; anything else counted first.
    server = createServer((req, res) => {
      const started = performance.now();
      if (cache.serveHit(req, res)) return metrics.answeredFromCache(req, res, started);
      metrics.observe(req, res);
      void cache.respond(req, res, page);
    }).listen(0, "127.0.0.1");
    await new Promise((resolve) => server!.once("listening", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push((await fetch(`${base}/story/a`)).headers.get("x-cache"));
    expect(answers).toEqual(["MISS", "HIT", "HIT"]);
    const etag = (await fetch(`${base}/story/a`)).headers.get("etag")!;
    expect((await fetch(`${base}/story/a`, { headers: { "if-none-match": etag } })).status).toBe(304);
    const { body } = await metrics.render();
    expect(body).toContain('oddwire_http_requests_total{route="/story/:slug",method="GET",status="200"} 4');
    expect(body).toContain('oddwire_http_requests_total{route="/story/:slug",method="GET",status="304"} 1');
    expect(body).toMatch(/oddwire_http_request_duration_seconds_count\{route="\/story\/:slug",method="GET"\} 5/);
    expect(body).toContain('oddwire_page_cache_total{result="hit"} 4');
    expect(body).toContain('oddwire_page_cache_total{result="miss"} 1');
  });

  test("counts requests by route and status with their latency, page-cache results, jobs, feed fetches, and Node's own", async () => {
    const metrics = createMetrics({ database: t.database, repo: t.repos.metrics });
    server = createServer((req, res) => {
      metrics.observe(req, res);
      const story = req.url?.startsWith("/story/");
      res.statusCode = story ? 200 : 404;
      res.setHeader("X-Cache", story ? "HIT" : "MISS");
      res.end(story ? "story" : "none");
    }).listen(0, "127.0.0.1");
    await new Promise((resolve) => server!.once("listening", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    for (const path of ["/story/a", "/story/b", "/category/nothing"]) await (await fetch(`${base}${path}`)).text();

    await makeJob(t.db, { kind: "ingest", status: "queued" });
    await makeJob(t.db, { kind: "ingest", status: "queued" });
    await makeJob(t.db, { kind: "enhance-images", status: "succeeded" });
    const source = await makeSource(t.db);
    await t.db.insert(feedProcessingLog).values([{ sourceId: source.id, notModified: true }, { sourceId: source.id, error: "HTTP 500" }, { sourceId: source.id }]);

    const { contentType, body } = await metrics.render();
    expect(contentType).toMatch(/^text\/plain/);
    expect(body).toContain('oddwire_http_requests_total{route="/story/:slug",method="GET",status="200"} 2');
    expect(body).toContain('oddwire_http_requests_total{route="/category/:slug",method="GET",status="404"} 1');
    expect(body).toMatch(/oddwire_http_request_duration_seconds_count\{route="\/story\/:slug",method="GET"\} 2/);
    expect(body).toContain('oddwire_page_cache_total{result="hit"} 2');
    expect(body).toContain('oddwire_page_cache_total{result="miss"} 1');
    expect(body).toContain('oddwire_jobs{kind="ingest",status="queued"} 2');
    expect(body).toContain('oddwire_jobs{kind="enhance-images",status="succeeded"} 1');
    for (const outcome of ["fetched", "not_modified", "failed"]) expect(body).toContain(`oddwire_feed_fetches_last_day{outcome="${outcome}"} 1`);
    expect(body).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    expect(body).toMatch(/^process_resident_memory_bytes \d/m);
    expect(body).toMatch(/oddwire_db_pool_connections\{state="total"\} \d+/);
  });

  test("Node's and the process's metrics keep their standard names, the product's own carry oddwire_, in one process and gathered from several", async () => {
    // The names stock Node.js dashboards query.
    const standard = [
      "process_cpu_user_seconds_total",
      "process_cpu_seconds_total",
      "process_resident_memory_bytes",
      "process_start_time_seconds",
      "nodejs_eventloop_lag_seconds",
      "nodejs_eventloop_lag_p99_seconds",
      "nodejs_heap_size_used_bytes",
      "nodejs_heap_size_total_bytes",
      "nodejs_external_memory_bytes",
      "nodejs_active_handles_total",
      "nodejs_gc_duration_seconds",
      "nodejs_version_info",
    ];
    const reference = new Registry();
    collectDefaultMetrics({ register: reference });
    const defaults = new Set((await reference.getMetricsAsJSON()).map((m) => m.name));
    const namesIn = (text: string) => [...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!);

    const metrics = createMetrics({ database: t.database, repo: t.repos.metrics });
    server = createServer((req, res) => {
      metrics.observe(req, res);
      if (req.url !== "/metrics") return void res.writeHead(404).end();
      void metrics.render().then(({ contentType, body }) => res.writeHead(200, { "Content-Type": contentType }).end(body));
    }).listen(0, "127.0.0.1");
    await new Promise((resolve) => server!.once("listening", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await (await fetch(`${base}/metrics`)).text();
    const scraped = await (await fetch(`${base}/metrics`)).text();

    const names = namesIn(scraped);
    for (const name of standard) expect(names).toContain(name);
    expect(scraped).toMatch(/^process_resident_memory_bytes \d+$/m);
    expect(scraped).toMatch(/^nodejs_heap_size_used_bytes \d+$/m);
    expect(scraped).toMatch(/^nodejs_eventloop_lag_seconds [\d.e-]+$/m);
    // Every one of prom-client's defaults, under its own name; anything else is the product's, prefixed.
    for (const name of defaults) expect(names).toContain(name);
    for (const name of names.filter((n) => !defaults.has(n))) expect(name).toMatch(/^oddwire_/);
    expect(names.filter((n) => n.startsWith("oddwire_process_") || n.startsWith("oddwire_nodejs_"))).toEqual([]);
    for (const name of ["oddwire_http_requests_total", "oddwire_http_request_duration_seconds", "oddwire_jobs", "oddwire_feed_fetches_last_day"]) expect(names).toContain(name);
    expect(scraped).toContain('oddwire_http_requests_total{route="/metrics",method="GET",status="200"} 1');

    // As the cluster's primary gathers every web process's registry (server/processes/web-cluster.ts): the same names.
    const other = createMetrics({ database: t.database, repo: t.repos.metrics });
    const gathered = await AggregatorRegistry.aggregate(await Promise.all([metrics.registry, other.registry].map((r) => r.getMetricsAsJSON()))).metrics();
    const gatheredNames = namesIn(gathered);
    // prom-client leaves out the start time when gathering: each process has its own.
    for (const name of standard.filter((n) => n !== "process_start_time_seconds")) expect(gatheredNames).toContain(name);
    for (const name of gatheredNames.filter((n) => !defaults.has(n))) expect(name).toMatch(/^oddwire_/);
    expect(gathered).toMatch(/^process_resident_memory_bytes \d+$/m);
  });
});
