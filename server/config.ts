import { randomBytes } from "node:crypto";
import { isIP } from "node:net";
import path from "node:path";
import os from "node:os";
import { z } from "zod";
import { DEFAULT_CHROMIUM_PATH } from "~/integrations/browser/chromium";
import { ownerOnlySecret } from "./owner-only-file";

const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();

const urlWith = (protocols: string[], hint: string) =>
  optionalText.refine((v) => {
    if (v === undefined) return true;
    try {
      return protocols.includes(new URL(v).protocol);
    } catch {
      return false;
    }
  }, hint);

// Zod skips refinements once any single variable is invalid; run the rules between variables anyway,
// so that every problem is reported at once.
const evenWithOtherProblems = {
  when: (payload: z.core.ParsePayload) => typeof payload.value === "object" && payload.value !== null,
};

const PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);
const isProxyAddress = (entry: string) => {
  if (PROXY_NAMES.has(entry)) return true;
  const [address = "", prefix, ...rest] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
};

/**
 * TRUST_PROXY: which peers' X-Forwarded-For (and -Proto, -Host) to believe. Off by default: the
 * socket's address is the client's. A number trusts that many proxies in front of the server; a
 * comma-separated list trusts those addresses, subnets or names (loopback, linklocal, uniquelocal).
 */
export const trustProxySchema = optionalText.transform((value, ctx): false | number | string[] => {
  if (value === undefined || ["off", "false", "0", "no"].includes(value.toLowerCase())) return false;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(",").map((e) => e.trim()).filter(Boolean);
  const bad = entries.filter((e) => !isProxyAddress(e));
  if (["true", "on", "yes", "all"].includes(value.toLowerCase()) || bad.length > 0 || entries.length === 0) {
    ctx.addIssue({
      code: "custom",
      message: `must be off, a number of proxies (1, 2...) or a comma-separated list of proxy addresses, subnets or loopback/linklocal/uniquelocal${bad.length > 0 && !["true", "on", "yes", "all"].includes(value.toLowerCase()) ? ` (not an address: ${bad.join(", ")})` : ""}`,
    });
    return z.NEVER;
  }
  return entries;
});

/** Every environment variable Oddwire reads, with its default. Parsed once, at start-up. */
export const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().trim().min(1).default("0.0.0.0"),
    DATA_DIR: z.string().trim().min(1).default("./data"),
    IMAGE_DIR: optionalText,
    IMAGE_CACHE_MB: z.coerce.number().int("must be a whole number of megabytes").min(16, "must be at least 16").default(1024),
    DATABASE_URL: urlWith(["postgres:", "postgresql:"], "must be a postgres:// or postgresql:// URL"),
    SITE_URL: urlWith(["http:", "https:"], "must be an http:// or https:// URL"),
    AUTH_SECRET: optionalText.refine((v) => v === undefined || v.length >= 32, "must be at least 32 characters"),
    SMTP_URL: urlWith(["smtp:", "smtps:"], "must be an smtp:// or smtps:// URL"),
    CONTACT_EMAIL: z.email("must be an e-mail address").default("tips@oddwire.news"),
    FACEBOOK_PAGE_ID: optionalText,
    FACEBOOK_PAGE_TOKEN: optionalText,
    FACEBOOK_GRAPH_URL: urlWith(["http:", "https:"], "must be an http:// or https:// URL"),
    FETCH_ALLOW_HOSTS: optionalText,
    CHROMIUM_PATH: optionalText,
    ROLE: z.enum(["web", "worker", "all"]).default("all"),
    WEB_CONCURRENCY: z.coerce.number().int("must be a whole number").min(1, "must be at least 1").max(64, "must be at most 64").optional(),
    TRUST_PROXY: trustProxySchema,
    METRICS_TOKEN: optionalText.refine((v) => v === undefined || v.length >= 16, "must be at least 16 characters"),
    METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  })
  .superRefine((env, ctx) => {
    if ((env.FACEBOOK_PAGE_ID === undefined) !== (env.FACEBOOK_PAGE_TOKEN === undefined)) {
      ctx.addIssue({
        code: "custom",
        path: [env.FACEBOOK_PAGE_ID === undefined ? "FACEBOOK_PAGE_ID" : "FACEBOOK_PAGE_TOKEN"],
        message: "FACEBOOK_PAGE_ID and FACEBOOK_PAGE_TOKEN are set together or not at all",
      });
    }
  }, evenWithOtherProblems);

export type Env = z.infer<typeof envSchema>;

export type Config = {
  env: Env["NODE_ENV"];
  port: number;
  host: string;
  dataDir: string;
  /** Where the public image route keeps fetched pictures and their variants. */
  imageDir: string;
  /** The most megabytes the image directory may hold before the least recently used go. */
  imageCacheMb: number;
  databaseUrl: string | undefined;
  siteUrl: string;
  /**
   * The origins changes are accepted from (the back office's forms and the auth service): SITE_URL's,
   * or with SITE_URL unset, both loopback spellings of the port (localhost and 127.0.0.1).
   */
  trustedOrigins: string[];
  /** The proxies whose forwarded headers are believed (the usual "trust proxy" forms, read in server/http/client-address.ts): none by default. */
  trustProxy: false | number | string[];
  /**
   * AUTH_SECRET, when set. On the embedded database a server without one keeps its own in DATA_DIR
   * (decision 001): `withAuthSecret` reads or makes it where the server starts, not here.
   */
  authSecret: string | undefined;
  smtpUrl: string | undefined;
  contactEmail: string;
  facebook: { pageId: string; pageToken: string; graphUrl: string } | undefined;
  fetchAllowHosts: string[];
  /** The headless Chromium for jsRendering sources. */
  chromiumPath: string;
  role: Env["ROLE"];
  /**
   * How many processes serve the site on PostgreSQL (node:cluster; default the machine's cores). The
   * embedded database is opened by one process only, so there it is always 1.
   */
  webConcurrency: number;
  logLevel: Env["LOG_LEVEL"];
  /** GET /metrics: closed unless a bearer token is set (on the main port) or a port of its own. */
  metrics: { token?: string; port?: number };
};

/** Every problem with the environment, reported together. */
export class ConfigError extends Error {
  readonly code = "CONFIG_INVALID";
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Parses and validates the environment, and nothing more (no file is read or written); throws ConfigError listing every bad value at once. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    // Name the variable and the rule, never the value: some of them are secrets.
    const problems = parsed.error.issues.map((issue) => {
      const key = String(issue.path[0] ?? "environment");
      return `${key}: ${issue.message}`;
    });
    throw new ConfigError(problems);
  }
  const env = parsed.data;
  const dataDir = path.resolve(env.DATA_DIR);
  const siteUrl = (env.SITE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, "");
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    dataDir,
    imageDir: env.IMAGE_DIR ? path.resolve(env.IMAGE_DIR) : path.join(dataDir, "images"),
    imageCacheMb: env.IMAGE_CACHE_MB,
    databaseUrl: env.DATABASE_URL,
    siteUrl,
    trustedOrigins: env.SITE_URL === undefined ? [`http://localhost:${env.PORT}`, `http://127.0.0.1:${env.PORT}`] : [new URL(siteUrl).origin],
    trustProxy: env.TRUST_PROXY,
    authSecret: env.AUTH_SECRET,
    smtpUrl: env.SMTP_URL,
    contactEmail: env.CONTACT_EMAIL,
    facebook:
      env.FACEBOOK_PAGE_ID && env.FACEBOOK_PAGE_TOKEN
        ? {
            pageId: env.FACEBOOK_PAGE_ID,
            pageToken: env.FACEBOOK_PAGE_TOKEN,
            graphUrl: (env.FACEBOOK_GRAPH_URL ?? "https://graph.facebook.com/v21.0").replace(/\/+$/, ""),
          }
        : undefined,
    fetchAllowHosts: (env.FETCH_ALLOW_HOSTS ?? "")
      .split(",")
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    chromiumPath: env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH,
    role: env.ROLE,
    webConcurrency: env.WEB_CONCURRENCY ?? os.availableParallelism(),
    logLevel: env.LOG_LEVEL,
    metrics: { token: env.METRICS_TOKEN, port: env.METRICS_PORT },
  };
}

/**
 * The configuration with its auth secret, for what signs sessions (the server; commands that sign
 * nothing never ask): AUTH_SECRET, required with DATABASE_URL, or on the embedded database the one
 * kept beside the data it protects, DATA_DIR/auth-secret, created once (mode 0600). Called where a
 * server starts, which hands the result to its web processes.
 */
export function withAuthSecret(config: Config): Config & { authSecret: string } {
  if (config.authSecret !== undefined) return { ...config, authSecret: config.authSecret };
  if (config.databaseUrl !== undefined) {
    throw new ConfigError(["AUTH_SECRET: is required with DATABASE_URL (every process sharing the database must share it)"]);
  }
  const authSecret = ownerOnlySecret(config.dataDir, "auth-secret", { minLength: 32, generate: () => randomBytes(32).toString("base64url") });
  return { ...config, authSecret };
}

/** The configuration as it may be logged: secrets replaced by whether they are set. */
export function describeConfig(config: Config): Record<string, unknown> {
  return {
    env: config.env,
    port: config.port,
    dataDir: config.dataDir,
    database: config.databaseUrl ? "postgres" : "embedded",
    siteUrl: config.siteUrl,
    trustProxy: config.trustProxy === false ? "off" : config.trustProxy,
    images: { dir: config.imageDir, cacheMb: config.imageCacheMb },
    authSecret: config.authSecret ? "[set]" : "kept in DATA_DIR",
    smtp: config.smtpUrl ? "[set]" : "outbox",
    contactEmail: config.contactEmail,
    facebook: config.facebook ? { pageId: config.facebook.pageId, pageToken: "[set]" } : "not configured",
    role: config.role,
    webConcurrency: config.webConcurrency,
    metrics: { token: config.metrics.token ? "[set]" : "not set", port: config.metrics.port ?? "not set" },
  };
}

/** A URL's password as written and decoded; none when it has none. */
function urlPassword(url: string | undefined): string[] {
  if (!url) return [];
  try {
    const written = new URL(url).password;
    return written ? [...new Set([written, decodeURIComponent(written)])] : [];
  } catch {
    return [];
  }
}

/**
 * Every secret value the configuration holds (the Page token, AUTH_SECRET, METRICS_TOKEN, the passwords
 * in SMTP_URL and DATABASE_URL), for scrubbing out of texts that are stored, shown or logged.
 */
export function configSecrets(config: Pick<Config, "facebook" | "authSecret" | "metrics" | "smtpUrl" | "databaseUrl">): string[] {
  const values = [config.facebook?.pageToken, config.authSecret, config.metrics.token, ...urlPassword(config.smtpUrl), ...urlPassword(config.databaseUrl)];
  return values.filter((value): value is string => typeof value === "string" && value !== "");
}
