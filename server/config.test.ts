import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { ConfigError, configSecrets, describeConfig, loadConfig, withAuthSecret } from "./config";
import { tempDir } from "~/test/temp-dir";

const SECRET = "a-secret-that-is-long-enough-for-oddwire-0123456789";

let dataDir: string;
beforeEach(() => {
  dataDir = tempDir("oddwire-config-");
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

/** The ConfigError that loadConfig throws for this environment. */
function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error("loadConfig accepted an invalid environment");
}

describe("loadConfig", () => {
  test("uses the defaults for an empty environment", () => {
    const config = loadConfig({ AUTH_SECRET: SECRET });
    expect(config).toMatchObject({
      env: "production",
      port: 3000,
      host: "0.0.0.0",
      dataDir: path.resolve("./data"),
      databaseUrl: undefined,
      siteUrl: "http://localhost:3000",
      authSecret: SECRET,
      smtpUrl: undefined,
      contactEmail: "tips@oddwire.news",
      facebook: undefined,
      fetchAllowHosts: [],
      role: "all",
      webConcurrency: os.availableParallelism(),
      logLevel: "info",
    });
  });

  test("WEB_CONCURRENCY web processes, the machine's cores by default, on the embedded database as on PostgreSQL", () => {
    const postgres = { AUTH_SECRET: SECRET, DATABASE_URL: "postgres://db.example/oddwire" };
    expect(loadConfig(postgres).webConcurrency).toBe(os.availableParallelism());
    expect(loadConfig({ ...postgres, WEB_CONCURRENCY: "3" }).webConcurrency).toBe(3);
    expect(loadConfig({ AUTH_SECRET: SECRET, WEB_CONCURRENCY: "3" }).webConcurrency).toBe(3);
    expect(loadConfig({ AUTH_SECRET: SECRET }).webConcurrency).toBe(os.availableParallelism());
    expect(configError({ ...postgres, WEB_CONCURRENCY: "0" }).problems).toEqual(["WEB_CONCURRENCY: must be at least 1"]);
    expect(configError({ ...postgres, WEB_CONCURRENCY: "two" }).problems).toHaveLength(1);
  });

  test("the default site URL follows PORT, and a given one loses its trailing slash", () => {
    expect(loadConfig({ AUTH_SECRET: SECRET, PORT: "8080" }).siteUrl).toBe("http://localhost:8080");
    expect(loadConfig({ AUTH_SECRET: SECRET, SITE_URL: "https://oddwire.news/" }).siteUrl).toBe("https://oddwire.news");
  });

  test("changes are trusted from SITE_URL's origin, or with SITE_URL unset from both loopback spellings of the port", () => {
    expect(loadConfig({ AUTH_SECRET: SECRET, PORT: "8080" }).trustedOrigins).toEqual(["http://localhost:8080", "http://127.0.0.1:8080"]);
    expect(loadConfig({ AUTH_SECRET: SECRET, SITE_URL: "https://oddwire.news/news/" }).trustedOrigins).toEqual(["https://oddwire.news"]);
    expect(loadConfig({ AUTH_SECRET: SECRET, SITE_URL: "http://localhost:3000" }).trustedOrigins).toEqual(["http://localhost:3000"]);
  });

  test("trusts no proxy by default; TRUST_PROXY names a hop count or the proxies' addresses", () => {
    expect(loadConfig({ AUTH_SECRET: SECRET }).trustProxy).toBe(false);
    expect(loadConfig({ AUTH_SECRET: SECRET, TRUST_PROXY: "off" }).trustProxy).toBe(false);
    expect(loadConfig({ AUTH_SECRET: SECRET, TRUST_PROXY: "0" }).trustProxy).toBe(false);
    expect(loadConfig({ AUTH_SECRET: SECRET, TRUST_PROXY: "1" }).trustProxy).toBe(1);
    expect(loadConfig({ AUTH_SECRET: SECRET, TRUST_PROXY: "loopback, 10.0.0.0/8,fd00::1" }).trustProxy).toEqual(["loopback", "10.0.0.0/8", "fd00::1"]);
  });

  test.each([["true"], ["10.0.0.0/33"], ["proxy.example"], ["10.0.0.1/8/8"]])("a TRUST_PROXY of %j is an error", (value) => {
    const problems = configError({ AUTH_SECRET: SECRET, TRUST_PROXY: value }).problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^TRUST_PROXY: must be off, a number of proxies/);
  });

  test("reads DATA_DIR as an absolute path", () => {
    expect(loadConfig({ AUTH_SECRET: SECRET, DATA_DIR: dataDir }).dataDir).toBe(path.resolve(dataDir));
  });

  test("keeps images in DATA_DIR/images under a 1024 MB cap unless IMAGE_DIR and IMAGE_CACHE_MB say otherwise", () => {
    expect(loadConfig({ AUTH_SECRET: SECRET, DATA_DIR: dataDir })).toMatchObject({ imageDir: path.join(path.resolve(dataDir), "images"), imageCacheMb: 1024 });
    const images = path.join(dataDir, "elsewhere");
    expect(loadConfig({ AUTH_SECRET: SECRET, DATA_DIR: dataDir, IMAGE_DIR: images, IMAGE_CACHE_MB: "64" })).toMatchObject({ imageDir: images, imageCacheMb: 64 });
  });

  test.each([["abc"], ["1.5"], ["8"], ["-1"]])("an IMAGE_CACHE_MB of %j is an error", (value) => {
    const error = configError({ AUTH_SECRET: SECRET, DATA_DIR: dataDir, IMAGE_CACHE_MB: value });
    expect(error.problems).toEqual([expect.stringMatching(/^IMAGE_CACHE_MB: /)]);
  });

  test("reports every bad value at once in one ConfigError", () => {
    const error = configError({
      AUTH_SECRET: SECRET,
      DATA_DIR: dataDir,
      PORT: "abc",
      SITE_URL: "ftp://x",
      SMTP_URL: "http://x",
      CONTACT_EMAIL: "nope",
    });
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.problems).toHaveLength(4);
    for (const name of ["PORT", "SITE_URL", "SMTP_URL", "CONTACT_EMAIL"]) {
      expect(error.problems.some((p) => p.startsWith(`${name}:`))).toBe(true);
      expect(error.message).toContain(name);
    }
  });

  test("reports the rules between variables alongside a bad single value", () => {
    const error = configError({
      DATA_DIR: dataDir,
      PORT: "abc",
      FACEBOOK_PAGE_ID: "12345",
    });
    expect(error.problems).toHaveLength(2);
    expect(error.problems.map((p) => p.split(":")[0])).toEqual(expect.arrayContaining(["PORT", "FACEBOOK_PAGE_TOKEN"]));
  });

  test("a Facebook page id without its token is an error", () => {
    const error = configError({ AUTH_SECRET: SECRET, DATA_DIR: dataDir, FACEBOOK_PAGE_ID: "12345" });
    expect(error.problems).toEqual([expect.stringMatching(/^FACEBOOK_PAGE_TOKEN: .*set together/)]);
  });

  test("a Facebook page id with its token configures Facebook", () => {
    const config = loadConfig({
      AUTH_SECRET: SECRET,
      DATA_DIR: dataDir,
      FACEBOOK_PAGE_ID: "12345",
      FACEBOOK_PAGE_TOKEN: "page-token",
    });
    expect(config.facebook).toEqual({
      pageId: "12345",
      pageToken: "page-token",
      graphUrl: "https://graph.facebook.com/v21.0",
    });
  });

  test("DATABASE_URL without AUTH_SECRET is an error for the server, which signs sessions; loading alone (a backup) is fine", () => {
    const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: "postgres://oddwire@db.example/oddwire" });
    expect(config.authSecret).toBeUndefined();
    const error = (() => {
      try {
        withAuthSecret(config);
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([expect.stringMatching(/^AUTH_SECRET: is required with DATABASE_URL/)]);
    expect(readdirSync(dataDir)).toEqual([]);
  });

  test("an AUTH_SECRET shorter than 32 characters is an error", () => {
    const error = configError({ DATA_DIR: dataDir, AUTH_SECRET: "x".repeat(31) });
    expect(error.problems).toEqual(["AUTH_SECRET: must be at least 32 characters"]);
  });

  test("the error never shows a secret value it was given", () => {
    const secrets = {
      AUTH_SECRET: "short-secret-value",
      FACEBOOK_PAGE_TOKEN: "fb-token-value-do-not-print",
      SMTP_URL: "http://mailer:smtp-password-value@mail.example",
      DATABASE_URL: "mysql://oddwire:db-password-value@db.example/oddwire",
    };
    const error = configError({ DATA_DIR: dataDir, ...secrets });
    expect(error.problems.length).toBeGreaterThanOrEqual(4);
    for (const value of [
      "short-secret-value",
      "fb-token-value-do-not-print",
      "smtp-password-value",
      "db-password-value",
    ]) {
      expect(error.message).not.toContain(value);
      expect(JSON.stringify(error.problems)).not.toContain(value);
    }
  });

  test("loading the configuration reads and writes no file: without AUTH_SECRET it is unset, and DATA_DIR is left as it was", () => {
    const nested = path.join(dataDir, "not", "yet");
    expect(loadConfig({ DATA_DIR: dataDir }).authSecret).toBeUndefined();
    expect(loadConfig({ DATA_DIR: nested }).authSecret).toBeUndefined();
    expect(readdirSync(dataDir)).toEqual([]);
  });

  test("without AUTH_SECRET or DATABASE_URL, the server's secret is generated into DATA_DIR/auth-secret, readable by its owner only", () => {
    const first = withAuthSecret(loadConfig({ DATA_DIR: dataDir }));
    const file = path.join(dataDir, "auth-secret");
    expect(first.authSecret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(file, "utf8").trim()).toBe(first.authSecret);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    expect(withAuthSecret(loadConfig({ DATA_DIR: dataDir })).authSecret).toBe(first.authSecret);
  });

  test("AUTH_SECRET, when set, is the secret, and nothing is written", () => {
    expect(withAuthSecret(loadConfig({ DATA_DIR: dataDir, AUTH_SECRET: SECRET })).authSecret).toBe(SECRET);
    expect(readdirSync(dataDir)).toEqual([]);
  });

  test("replaces an empty or truncated secret file (a crash while creating it) with a new secret", () => {
    writeFileSync(path.join(dataDir, "auth-secret"), "");
    const config = withAuthSecret(loadConfig({ DATA_DIR: dataDir }));
    expect(config.authSecret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(path.join(dataDir, "auth-secret"), "utf8").trim()).toBe(config.authSecret);
  });

  test("creates DATA_DIR for the secret when it does not exist yet", () => {
    const nested = path.join(dataDir, "not", "yet");
    const config = withAuthSecret(loadConfig({ DATA_DIR: nested }));
    expect(readFileSync(path.join(nested, "auth-secret"), "utf8").trim()).toBe(config.authSecret);
  });

  test("each data directory gets its own generated secret", () => {
    const other = tempDir("oddwire-config-");
    try {
      expect(withAuthSecret(loadConfig({ DATA_DIR: other })).authSecret).not.toBe(withAuthSecret(loadConfig({ DATA_DIR: dataDir })).authSecret);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});

describe("configSecrets", () => {
  test("lists every secret value the configuration holds, URL passwords as written and decoded", () => {
    const config = loadConfig({
      DATA_DIR: dataDir,
      AUTH_SECRET: SECRET,
      FACEBOOK_PAGE_ID: "12345",
      FACEBOOK_PAGE_TOKEN: "fb-token-value-do-not-print",
      METRICS_TOKEN: "metrics-token-value-0123",
      SMTP_URL: "smtps://mailer:smtp-password-value@mail.example:465",
      DATABASE_URL: "postgres://oddwire:db%40password-value@db.example:5432/oddwire",
    });
    expect(configSecrets(config).sort()).toEqual(
      [SECRET, "fb-token-value-do-not-print", "metrics-token-value-0123", "smtp-password-value", "db%40password-value", "db@password-value"].sort(),
    );
  });

  test("without a Page, metrics token or passwords, the generated auth secret alone", () => {
    const config = withAuthSecret(loadConfig({ DATA_DIR: dataDir, SMTP_URL: "smtp://mail.example:25" }));
    expect(configSecrets(config)).toEqual([config.authSecret]);
  });
});

describe("describeConfig", () => {
  test("never contains a secret value", () => {
    const config = loadConfig({
      DATA_DIR: dataDir,
      AUTH_SECRET: SECRET,
      FACEBOOK_PAGE_ID: "12345",
      FACEBOOK_PAGE_TOKEN: "fb-token-value-do-not-print",
      SMTP_URL: "smtps://mailer:smtp-password-value@mail.example:465",
      DATABASE_URL: "postgres://oddwire:db-password-value@db.example:5432/oddwire",
    });
    const described = JSON.stringify(describeConfig(config));
    for (const value of [SECRET, "fb-token-value-do-not-print", "smtp-password-value", "db-password-value"]) {
      expect(described).not.toContain(value);
    }
    expect(describeConfig(config)).toMatchObject({
      database: "postgres",
      authSecret: "[set]",
      smtp: "[set]",
      facebook: { pageId: "12345", pageToken: "[set]" },
    });
  });

  test("never contains the generated secret either", () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    const described = describeConfig(config);
    expect(JSON.stringify(described)).not.toContain(config.authSecret);
    expect(described).toMatchObject({ database: "embedded", dataDir: path.resolve(dataDir), smtp: "outbox" });
  });
});
