// Writes a .br and a .gz beside every compressible file of the client build (build/client), so the
// server never compresses a static file per request: it loads each form once (server/http/static-assets.ts).
// Run after `react-router build` (npm run build, scripts/ensure-build.mjs).
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dir = path.resolve(process.argv[2] ?? path.join(root, "build", "client"));
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|html|txt|xml|map)$/i;

function walk(target) {
  return readdirSync(target).flatMap((name) => {
    const full = path.join(target, name);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}

let files = 0;
let before = 0;
let after = 0;
for (const file of walk(dir)) {
  if (!COMPRESSIBLE.test(file)) continue;
  const body = readFileSync(file);
  if (body.length < 1024) continue;
  const br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
  const gz = gzipSync(body, { level: 9 });
  if (br.length < body.length) writeFileSync(`${file}.br`, br);
  if (gz.length < body.length) writeFileSync(`${file}.gz`, gz);
  files += 1;
  before += body.length;
  after += br.length;
}
console.log(`precompressed ${files} files: ${(before / 1024).toFixed(0)} KiB, ${(after / 1024).toFixed(0)} KiB as br`);
