// npm run dev: the site with Vite's hot reload, on the configured database.
import { loadConfig } from "../config";
import { serve } from "./serve";

process.env.NODE_ENV = "development";
await serve({ config: loadConfig({ ...process.env, NODE_ENV: "development" }), dev: true });
