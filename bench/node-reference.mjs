// The second reference of `npm run bench:public`: a bare node:http server (no framework, no
// logging, no metrics) answering the very same bytes and header lines the app answered, with a 304
// for a matching If-None-Match, in as many processes (node:cluster) as the app has web processes.
// What it reaches is what Node's HTTP stack allows on this machine; the app's distance from it is
// the app's own. With "asyncLocalStorage": true, an AsyncLocalStorage has been run once first, as
// React's streaming renderer and the sign-in library do in every process of the app: on Node 20 that
// turns on async hooks for every request after it. Plain JavaScript, so that it starts without a
// TypeScript loader.
//
// Usage: node bench/node-reference.mjs MANIFEST.json
//   MANIFEST: { "port": 8080, "workers": 1, "asyncLocalStorage": false, "files": [{ "name": "page0", "bodyFile": "/tmp/x", "etag": "W/\"..\"", "headers": [["Content-Type", "text/html"], ...] }] }
import { AsyncLocalStorage } from "node:async_hooks";
import cluster from "node:cluster";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const manifest = JSON.parse(readFileSync(process.argv[2], "utf8"));

if (cluster.isPrimary && manifest.workers > 1) {
  for (let i = 0; i < manifest.workers; i++) cluster.fork();
  process.on("SIGTERM", () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill("SIGTERM");
    process.exit(0);
  });
} else {
  if (manifest.asyncLocalStorage) new AsyncLocalStorage().run(null, () => {});
  // Every header line of each answer, flat, made once: what the app's page cache does too.
  const routes = new Map(
    manifest.files.map((file) => {
      const body = readFileSync(file.bodyFile);
      const common = file.headers.flatMap(([name, value]) => (/^(content-length|content-encoding)$/i.test(name) ? [] : [name, value]));
      const encoding = file.headers.find(([name]) => name.toLowerCase() === "content-encoding");
      const ok = [...common, ...(encoding ? encoding : []), "Content-Length", String(body.length)];
      return [`/${file.name}`, { body, etag: file.etag, ok, notModified: common }];
    }),
  );
  createServer((req, res) => {
    const route = routes.get(req.url);
    if (!route) {
      res.writeHead(404, ["Content-Length", "0"]);
      return void res.end();
    }
    const ifNoneMatch = req.headers["if-none-match"];
    if (ifNoneMatch !== undefined && ifNoneMatch.includes(route.etag)) {
      res.writeHead(304, route.notModified);
      return void res.end();
    }
    res.writeHead(200, route.ok);
    res.end(route.body);
  }).listen(manifest.port, "127.0.0.1");
  process.on("SIGTERM", () => process.exit(0));
}
