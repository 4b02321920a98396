import { execFile } from "node:child_process";
import { existsSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "~/lib/project-root";
import { BIN } from "~/test/oddwire-process";
import { openDatabase } from "~/db/client";
import { startEmbeddedServer } from "~/db/embedded/server";
import { openEmbeddedDatabase } from "~/server/database";
import { main } from "./cli";
import { tempDir as newTempDir } from "~/test/temp-dir";


/** Runs the CLI in this process, capturing what it prints; stdin is given as text chunks. */
async function run(argv: string[], stdin: string[] = []) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    stdin: Readable.from(stdin),
  });
  return {
    code,
    out,
    err,
    get json() {
      return out.map((line) => JSON.parse(line) as Record<string, unknown>);
    },
  };
}

/** The single JSON error an unsuccessful command printed on stderr. */
function errorOf(err: string[]): { code: string; message: string } {
  expect(err).toHaveLength(1);
  return (JSON.parse(err[0]!) as { error: { code: string; message: string } }).error;
}

const tempDirs: string[] = [];
function tempDir(): string {
  const dir = newTempDir("oddwire-cli-");
  tempDirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("help", () => {
  test.each(["--help", "-h", "help", "(no command)"])("%s lists every command", async (flag) => {
    const { code, out, err } = await run(flag === "(no command)" ? [] : [flag]);
    expect(code).toBe(0);
    expect(err).toEqual([]);
    const help = out.join("\n");
    for (const command of ["serve", "migrate", "seed", "user:create", "user:grant-admin", "normalize-url"]) {
      expect(help).toMatch(new RegExp(`^\\s+${command}\\b`, "m"));
    }
  });

  test("an unknown command exits 2 with a JSON usage error", async () => {
    const { code, out, err } = await run(["frobnicate"]);
    expect(code).toBe(2);
    expect(out).toEqual([]);
    const error = errorOf(err);
    expect(error.code).toBe("USAGE");
    expect(error.message).toContain("frobnicate");
  });
});

describe("normalize-url", () => {
  test("prints one JSON line per URL with its normalised form and hash", async () => {
    const { code, json, err } = await run([
      "normalize-url",
      "https://www.Example.com/goat/?utm_source=rss",
      "news.example/llama",
    ]);
    expect(code).toBe(0);
    expect(err).toEqual([]);
    expect(json).toHaveLength(2);
    expect(json[0]).toEqual({
      input: "https://www.Example.com/goat/?utm_source=rss",
      normalized: expect.any(String),
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(json[0]?.normalized).not.toContain("utm_source");
    expect(json[1]).toEqual({
      input: "news.example/llama",
      normalized: expect.stringContaining("news.example/llama"),
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(json[0]?.hash).not.toBe(json[1]?.hash);
  });

  test("the same page written two ways gets the same hash", async () => {
    const { json } = await run([
      "normalize-url",
      "https://example.com/goat",
      "https://www.example.com/goat/?utm_source=x#top",
    ]);
    expect(json[0]?.hash).toBe(json[1]?.hash);
  });

  test("reports input that is not a URL as an error line and exits 1, still printing the good ones", async () => {
    const { code, json } = await run(["normalize-url", "https://example.com/goat", "javascript:alert(1)"]);
    expect(code).toBe(1);
    expect(json[0]).toMatchObject({ input: "https://example.com/goat", hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(json[1]).toEqual({
      input: "javascript:alert(1)",
      error: { code: "UNSUPPORTED_SCHEME", message: expect.any(String) },
    });
  });

  test("garbage alone exits 1", async () => {
    const { code, json } = await run(["normalize-url", "/just/a/path"]);
    expect(code).toBe(1);
    expect(json).toEqual([{ input: "/just/a/path", error: { code: "INVALID_URL", message: expect.any(String) } }]);
  });

  test("reads one URL per line from stdin when none is given, skipping blank lines", async () => {
    const { code, json } = await run(
      ["normalize-url"],
      ["https://example.com/a\r\n\n", "https://exam", "ple.com/b\n  \n"],
    );
    expect(code).toBe(0);
    expect(json.map((line) => line.input)).toEqual(["https://example.com/a", "https://example.com/b"]);
    expect(json.every((line) => /^[0-9a-f]{64}$/.test(String(line.hash)))).toBe(true);
  });

  test("with no URL at all exits 2", async () => {
    const { code, err } = await run(["normalize-url"], []);
    expect(code).toBe(2);
    expect(errorOf(err).code).toBe("USAGE");
  });
});

describe("usage errors of the database commands", () => {
  test.each([
    ["user:create without --password", ["user:create", "--email", "a@b.test"]],
    ["user:create without --email", ["user:create", "--password", "longenough1"]],
    [
      "user:create with an unknown option",
      ["user:create", "--email", "a@b.test", "--password", "longenough1", "--root"],
    ],
    ["user:grant-admin without an e-mail", ["user:grant-admin"]],
    ["user:grant-admin with two e-mails", ["user:grant-admin", "a@b.test", "c@d.test"]],
    ["migrate with an argument", ["migrate", "now"]],
  ])("%s exits 2 with a JSON usage error", async (_case, argv) => {
    const { code, out, err } = await run(argv);
    expect(code).toBe(2);
    expect(out).toEqual([]);
    expect(errorOf(err).code).toBe("USAGE");
  });
});

describe("database commands, on the embedded server in a fresh DATA_DIR", () => {
  let savedEnv: NodeJS.ProcessEnv;
  beforeEach(() => {
    savedEnv = { ...process.env };
    delete process.env.DATABASE_URL;
    delete process.env.AUTH_SECRET;
    process.env.DATA_DIR = tempDir();
  });
  afterEach(() => {
    for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
    Object.assign(process.env, savedEnv);
  });

  test("migrate migrates the embedded database", async () => {
    const { code, json, err } = await run(["migrate"]);
    expect(err).toEqual([]);
    expect(code).toBe(0);
    expect(json).toEqual([{ migrated: true, database: "embedded" }]);
  }, 60_000);

  test("seed creates the default categories once; seed --demo loads the demo", async () => {
    expect((await run(["seed"])).json).toEqual([{ categories_added: 8 }]);

    const demo = await run(["seed", "--demo"]);
    expect(demo.err).toEqual([]);
    expect(demo.code).toBe(0);
    expect(demo.json[0]).toMatchObject({
      categories_added: 0,
      sources_added: 6,
      stories_added: expect.any(Number),
      rejected_added: expect.any(Number),
      admin: { email: "admin@oddwire.test", created: true },
    });
    const first = demo.json[0] as { stories_added: number; rejected_added: number };
    expect(first.stories_added + first.rejected_added).toBeGreaterThanOrEqual(300);

    // The password is generated for this data directory, kept there owner-only, and printed in the JSON.
    const password = (demo.json[0] as { admin: { password: string } }).admin.password;
    expect(password).toMatch(/^[A-Za-z0-9_-]{20}$/);
    const file = path.join(process.env.DATA_DIR!, "demo-admin-password");
    expect(readFileSync(file, "utf8").trim()).toBe(password);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    expect((await run(["seed", "--demo"])).json[0]).toMatchObject({
      categories_added: 0,
      sources_added: 0,
      stories_added: 0,
      rejected_added: 0,
      admin: { created: false, password },
    });
  }, 60_000);

  test("seed without --demo loads no demo content and no demo admin", async () => {
    expect((await run(["seed"])).code).toBe(0);
    expect(existsSync(path.join(process.env.DATA_DIR!, "demo-admin-password"))).toBe(false);
    const database = await openEmbeddedDatabase(process.env.DATA_DIR!);
    try {
      const counts = await database.pool.query<{ users: number; stories: number; sources: number }>(
        "SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM stories) AS stories, (SELECT count(*)::int FROM sources) AS sources",
      );
      expect(counts.rows[0]).toEqual({ users: 0, stories: 0, sources: 0 });
    } finally {
      await database.close();
    }
  }, 60_000);

  test("user:create makes an admin, and refuses the same e-mail again", async () => {
    const created = await run(["user:create", "--email", "a@b.test", "--password", "longenough1", "--admin"]);
    expect(created.err).toEqual([]);
    expect(created.code).toBe(0);
    expect(created.json).toEqual([
      { id: expect.any(String), email: "a@b.test", name: "a", isAdmin: true, emailVerified: true },
    ]);

    const again = await run(["user:create", "--email", "A@B.test", "--password", "longenough1"]);
    expect(again.code).toBe(1);
    expect(again.out).toEqual([]);
    expect(errorOf(again.err).code).toBe("USER_EXISTS");
  }, 60_000);

  test("user:grant-admin makes a plain user an admin, and refuses an unknown one", async () => {
    const plain = await run(["user:create", "--email", "plain@b.test", "--password", "longenough1"]);
    expect(plain.json[0]).toMatchObject({ isAdmin: false });

    const granted = await run(["user:grant-admin", "plain@b.test"]);
    expect(granted.err).toEqual([]);
    expect(granted.code).toBe(0);
    expect(granted.json).toEqual([{ ...plain.json[0], isAdmin: true }]);

    const unknown = await run(["user:grant-admin", "nobody@b.test"]);
    expect(unknown.code).toBe(1);
    expect(errorOf(unknown.err).code).toBe("USER_NOT_FOUND");
  }, 60_000);

  test("a bad environment exits 1 with every problem listed", async () => {
    process.env.PORT = "abc";
    process.env.SITE_URL = "ftp://x";
    const { code, err } = await run(["migrate"]);
    expect(code).toBe(1);
    const error = JSON.parse(err[0]!) as { error: { code: string; problems: string[] } };
    expect(error.error.code).toBe("CONFIG_INVALID");
    expect(error.error.problems).toHaveLength(2);
  });
});

describe("the oddwire binary", () => {
  test("a command run while the site serves DATA_DIR works on the site's own database server, and leaves it running", async () => {
    const dataDir = tempDir();
    // Stands for the running site: the process that serves owns the embedded server.
    const site = await startEmbeddedServer({ dataDir, role: "serve" });
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "silent" };
      delete env.DATABASE_URL;
      delete env.AUTH_SECRET;
      const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        execFile(process.execPath, [BIN, "user:create", "--email", "shared@b.test", "--password", "longenough1"], { cwd: PROJECT_ROOT, env, timeout: 60_000 }, (error, stdout, stderr) => {
          const code = error === null ? 0 : typeof error.code === "number" ? error.code : null;
          resolve({ code, stdout, stderr });
        });
      });
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ email: "shared@b.test" });

      // The site's connection sees the user, and the server still answers after the command ended.
      const database = await openDatabase({ databaseUrl: site.url, poolSize: 1 });
      try {
        const found = await database.pool.query<{ email: string }>("SELECT email FROM users");
        expect(found.rows).toEqual([{ email: "shared@b.test" }]);
      } finally {
        await database.close();
      }
    } finally {
      await site.stop();
    }
  }, 60_000);
});
