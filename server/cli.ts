import { parseArgs } from "node:util";
import type { Database } from "~/db/client";
import { DataDirInUseError } from "~/db/lock";
import { runMigrations } from "~/db/migrate";
import { createRepos } from "~/db/repos";
import { ensureDefaultCategories } from "~/domain/categories/default-categories";
import { seedDemo } from "~/domain/demo/seed-demo";
import { DomainError } from "~/domain/errors";
import { normalizeUrl } from "~/domain/urls/normalize-url";
import { createUser, grantAdmin } from "~/domain/users/users";
import { ConfigError, loadConfig } from "./config";
import { openConfiguredDatabase } from "./database";
import { serve } from "./serve";

type Io = { out: (line: string) => void; err: (line: string) => void; stdin: NodeJS.ReadStream };

const HELP = `Usage: oddwire <command> [options]

Commands:
  serve [--demo]                                   migrate, create default categories and serve the site
                                                   (--demo also loads the demo content and admin)
  migrate                                          apply database migrations
  seed [--demo]                                    create the default categories; --demo loads the demo
                                                   content and the demo admin (idempotent)
  user:create --email E --password P [--admin]     create a user who can sign in
  user:grant-admin E                               give an existing user the admin flag
  normalize-url URL...                             print {"input","normalized","hash"} per URL
                                                   (reads one URL per line from stdin when none given)

Every command that reports prints JSON on stdout; errors are JSON on stderr with a non-zero exit.
The database is PGlite in DATA_DIR (default ./data), or PostgreSQL when DATABASE_URL is set.`;

class UsageError extends Error {}

/** Runs one CLI command; returns the process exit code. */
export async function main(argv: string[], io: Io = defaultIo()): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case undefined:
      case "help":
      case "--help":
      case "-h":
        io.out(HELP);
        return 0;
      case "serve": {
        const { values } = parseArgs({ args: rest, options: { demo: { type: "boolean" } } });
        await serve({ config: loadConfig(), demo: values.demo === true });
        return 0;
      }
      case "migrate":
        parseArgs({ args: rest, options: {} });
        return await withDatabase(async (database) => {
          io.out(JSON.stringify({ migrated: true, database: database.kind }));
        });
      case "seed": {
        const { values } = parseArgs({ args: rest, options: { demo: { type: "boolean" } } });
        return await withDatabase(async (database) => {
          const repos = createRepos(database.db);
          const categoriesAdded = await ensureDefaultCategories(repos);
          if (!values.demo) {
            io.out(JSON.stringify({ categories_added: categoriesAdded }));
            return;
          }
          io.out(JSON.stringify(await seedDemo({ repos })));
        });
      }
      case "user:create": {
        const { values } = parseArgs({
          args: rest,
          options: { email: { type: "string" }, password: { type: "string" }, admin: { type: "boolean" } },
        });
        if (!values.email || !values.password) throw new UsageError("user:create needs --email and --password");
        const { email, password } = values;
        return await withDatabase(async (database) => {
          const user = await createUser(createRepos(database.db), { email, password, admin: values.admin === true });
          io.out(JSON.stringify(user));
        });
      }
      case "user:grant-admin": {
        const { positionals } = parseArgs({ args: rest, allowPositionals: true, options: {} });
        const [email] = positionals;
        if (!email || positionals.length !== 1) throw new UsageError("user:grant-admin needs exactly one e-mail address");
        return await withDatabase(async (database) => {
          io.out(JSON.stringify(await grantAdmin(createRepos(database.db), email)));
        });
      }
      case "normalize-url": {
        const { positionals } = parseArgs({ args: rest, allowPositionals: true, options: {} });
        const inputs = positionals.length > 0 ? positionals : await readLines(io.stdin);
        if (inputs.length === 0) throw new UsageError("normalize-url needs at least one URL");
        let failed = 0;
        for (const input of inputs) {
          const result = normalizeUrl(input);
          if (result.ok) io.out(JSON.stringify({ input, normalized: result.normalized, hash: result.hash }));
          else {
            failed++;
            io.out(JSON.stringify({ input, error: result.error }));
          }
        }
        return failed > 0 ? 1 : 0;
      }
      default:
        throw new UsageError(`Unknown command "${command}". Run "oddwire --help" for the list.`);
    }
  } catch (error) {
    return report(io, error);
  }
}

async function withDatabase(work: (database: Database) => Promise<void>): Promise<number> {
  const config = loadConfig();
  const database = await openConfiguredDatabase(config);
  try {
    await runMigrations(database);
    await work(database);
    return 0;
  } finally {
    await database.close();
  }
}

function report(io: Io, error: unknown): number {
  const print = (code: string, message: string, extra: Record<string, unknown> = {}) =>
    io.err(JSON.stringify({ error: { code, message, ...extra } }));
  if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
    print("USAGE", (error as Error).message);
    return 2;
  }
  if (error instanceof ConfigError) print(error.code, error.message, { problems: error.problems });
  else if (error instanceof DataDirInUseError) print(error.code, error.message);
  else if (error instanceof DomainError) print(error.code, error.message);
  else {
    const cause = (error as Error).cause as Error | undefined;
    print("FAILED", (error as Error).message ?? String(error), cause?.message ? { cause: cause.message } : {});
  }
  return 1;
}

async function readLines(stdin: NodeJS.ReadStream): Promise<string[]> {
  if (stdin.isTTY) return [];
  let text = "";
  for await (const chunk of stdin) text += String(chunk);
  return text.split(/\r?\n/).filter((line) => line.trim() !== "");
}

function defaultIo(): Io {
  return {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    stdin: process.stdin,
  };
}
