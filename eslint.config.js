import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// Layering (DESIGN.md, docs/architecture.md): each layer imports only the layers below it.
//
//   server/                      entry points and wiring: may import anything
//   app/  jobs/                  the web layer; background work
//   domain/                      business rules
//   db/  integrations/           the database; the outside world
//   lib/                         small helpers every layer may use
//
// Tests may also use the harness (test/, db/testing) and build what they test against.
const noDrizzle = { group: ["drizzle-orm", "drizzle-orm/*", "pg", "@electric-sql/*"], message: "Only db/ talks to the database." };
const noWeb = { group: ["react", "react-dom", "react-router", "react-router/*", "@react-router/*"], message: "Only app/ knows the web." };
const above = (layers, why) => ({ group: layers.map((layer) => `~/${layer}/**`), message: why });
const realHttpClient = { group: ["~/integrations/http/guarded-client"], message: "Dependencies come in: take an HttpClient; the error predicate is in integrations/http/fetch-error." };
const harness = { group: ["~/test/**", "~/db/testing/**"], message: "The test harness is for tests." };
// Heavy packages a process needs only for some work (rendering a page in Chromium, drawing a share
// card): loaded with import() where they are used, so a process that never does that work does not
// carry them (Playwright alone is about 85 MB of memory). Their types may be named anywhere.
const lazyHeavy = {
  group: ["playwright-core", "satori", "@resvg/resvg-js"],
  message: "Load it with await import() where it is used: a process that never needs it should not carry it.",
  allowTypeImports: true,
};
const restrict = (...patterns) => ["error", { patterns }];
// db and integrations types may be named in the domain (its dependencies come in, typed); their code may not run there.
const typeOnly = (layers, why) => ({ group: layers.map((layer) => `~/${layer}/**`), message: why, allowTypeImports: true });
const tsRestrict = (...patterns) => ["error", { patterns }];

const TESTS = ["**/*.test.ts", "**/*.test.tsx", "**/testing/**", "**/testing.ts"];

export default tseslint.config(
  { ignores: ["build/", ".react-router/", "node_modules/", "data/", "test-results/", "playwright-report/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-console": ["error", { allow: ["warn", "error"] }],
    },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ["lib/**/*.ts"],
    ignores: TESTS,
    rules: { "no-restricted-imports": restrict(noDrizzle, noWeb, above(["server", "app", "jobs", "domain", "db", "integrations"], "lib/ is the bottom layer: it imports no other layer.")) },
  },
  {
    files: ["integrations/**/*.ts"],
    ignores: TESTS,
    rules: {
      "no-restricted-imports": "off",
      "@typescript-eslint/no-restricted-imports": tsRestrict(
        noDrizzle,
        noWeb,
        harness,
        lazyHeavy,
        above(["server", "app", "jobs", "domain", "db"], "integrations/ reach the outside world; they import only lib/."),
      ),
    },
  },
  {
    files: ["db/**/*.ts"],
    ignores: TESTS,
    rules: { "no-restricted-imports": restrict(noWeb, harness, above(["server", "app", "jobs", "domain", "integrations"], "db/ stores rows; it imports only lib/.")) },
  },
  {
    files: ["domain/**/*.ts"],
    ignores: TESTS,
    rules: {
      "no-restricted-imports": "off",
      "@typescript-eslint/no-restricted-imports": tsRestrict(
        noDrizzle,
        noWeb,
        harness,
        realHttpClient,
        above(["server", "app", "jobs"], "The domain is called by app/, jobs/ and server/, never the reverse."),
        typeOnly(["db"], "The domain names repositories by type; they are passed in."),
      ),
    },
  },
  {
    files: ["jobs/**/*.ts"],
    ignores: TESTS,
    rules: { "no-restricted-imports": restrict(noWeb, harness, above(["server", "app"], "jobs/ run domain work; they are wired by server/.")) },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    ignores: TESTS,
    rules: {
      "no-restricted-imports": "off",
      "@typescript-eslint/no-restricted-imports": tsRestrict(
        noDrizzle,
        harness,
        above(["server"], "app/ receives what server/ builds through the load context."),
        typeOnly(["db", "integrations", "jobs"], "Routes call the domain; the load context carries the rest."),
      ),
    },
  },
  {
    // Tests sit beside what they test and may use the harness and the layers they test against,
    // but never the entry points' wiring of a higher layer.
    files: ["lib/**/*.test.ts", "integrations/**/*.test.ts", "db/**/*.test.ts"],
    rules: { "no-restricted-imports": restrict(above(["app", "jobs", "domain"], "A lower layer's tests do not need a higher layer.")) },
  },
  {
    files: ["scripts/**", "bin/**", "server/cli/cli.ts"],
    rules: { "no-console": "off" },
  },
);
