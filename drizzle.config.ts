import { defineConfig } from "drizzle-kit";

// Only used to generate SQL migrations from db/schema.ts; they are applied from code at start-up.
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema.ts",
  out: "./db/migrations",
});
