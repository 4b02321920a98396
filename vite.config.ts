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
  build: { rollupOptions: { output: { experimentalMinChunkSize: 20_000 } } },
});
