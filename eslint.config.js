import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// Layering (DESIGN.md): domain has no React, Router or Drizzle; only db/ talks to Drizzle.
const noDrizzle = { group: ["drizzle-orm", "drizzle-orm/*", "pg", "@electric-sql/*"], message: "Only db/ talks to the database." };
const noWeb = { group: ["react", "react-dom", "react-router", "react-router/*", "@react-router/*"], message: "The domain knows nothing of the web." };

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
    rules: {
      ...reactHooks.configs.recommended.rules,
      "no-restricted-imports": ["error", { patterns: [noDrizzle, { group: ["~/db/client", "~/db/schema"], message: "Routes call the domain." }] }],
    },
  },
  {
    files: ["domain/**/*.ts"],
    ignores: ["domain/**/*.test.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [noDrizzle, noWeb] }] },
  },
  {
    files: ["scripts/**", "bin/**", "server/cli.ts"],
    rules: { "no-console": "off" },
  },
);
