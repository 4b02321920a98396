import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  resolve: { alias: { "~": fileURLToPath(new URL(".", import.meta.url)) } },
  // Files under public/ are served by the app server too; the build copies them into build/client.
  publicDir: "public",
  // Fewer, larger client chunks: a public page preloaded some twenty modules of 1-2 KB each, and
  // a phone on HTTP/1.1 fetches six at a time, so every extra round of them delays the first paint.
  build: {
    rollupOptions: {
      output: { experimentalMinChunkSize: 20_000 },
      // Quiet builds: what is expected is not reported. Resource routes (feeds, sitemaps, JSON) have no
      // client code, so their chunks are empty; zod's sources carry comments Rollup drops; the
      // chunk merging above reports its counts.
      onLog(level, log, handler) {
        if (log.code === "EMPTY_BUNDLE" || log.code === "OPTIMIZE_CHUNK_STATUS") return;
        if (log.code === "INVALID_ANNOTATION" && log.id?.includes("/node_modules/")) return;
        handler(level, log);
      },
    },
  },
});
