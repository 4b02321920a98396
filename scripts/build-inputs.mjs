// What the web build is made from: scripts/ensure-build.mjs builds again when any of these is newer
// than the build. Every local directory the app's code imports from belongs here (build-inputs.test.ts
// checks it), or a change there alone would leave a stale build.
export const WEB_BUILD_INPUTS = [
  "app",
  "domain",
  "db",
  "lib",
  "integrations",
  "jobs",
  "public",
  "vite.config.ts",
  "react-router.config.ts",
  "tsconfig.json",
  "package.json",
];
