import { readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import type { Database } from "~/db/client";
import { DataDirInUseError } from "~/db/lock";
import { runMigrations } from "~/db/migrate";
import { createRepos } from "~/db/repos";
import { ensureDefaultCategories } from "~/domain/categories/default-categories";
import { seedDemo } from "~/domain/demo/seed-demo";
import { isDomainError } from "~/domain/errors";
import { normalizeUrl } from "~/lib/normalize-url";
import { createUser, grantAdmin } from "~/domain/users/users";
import { PAGE_ACCEPT } from "~/domain/ingestion/accept";
import { decodeHtmlBytes } from "~/lib/decode-bytes";
import { parseFeed } from "~/domain/ingestion/feed/parse-feed";
import { runIngestionCycle } from "~/domain/ingestion/ingest";
import { validateFeed } from "~/domain/ingestion/validate-feed";
import { createSource } from "~/domain/sources/sources";
import { extractArticle } from "~/integrations/extract/extract-article";
import { createGuardedClient, isFetchError, userAgentFor } from "~/integrations/http/guarded-client";
import type { HttpClient } from "~/integrations/http/types";
import { createPoliteness } from "./politeness";
import { isImageProbeError } from "~/integrations/images/probe";
import { ConfigError, configSecrets, loadConfig, type Config } from "./config";
import { demoAdminPassword } from "./demo-admin";
import { createFeedParserPool } from "./feed-parser-pool";
import { createLogger } from "./logger";
import { BACKUP_COMMANDS, BACKUP_HELP, runBackupCommand } from "./cli-backup";
import { CRAWL_COMMANDS, CRAWL_HELP, runCrawlCommand } from "./cli-crawl";
import { FACEBOOK_COMMANDS, FACEBOOK_HELP, runFacebookCommand } from "./cli-facebook";
import { IMAGE_COMMANDS, IMAGE_HELP, runImageCommand } from "./cli-images";
import type { CliTools } from "./cli-tools";
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
  parse-feed FILE|URL                              parse a feed: {format, title, siteUrl, items}
  validate-feed URL                                the RSS Validator's result for a feed URL
  extract URL|FILE [--base-url URL]                an article's title, summary, imageUrl, canonicalUrl,
                                                   publishedAt and text
  source:add --name N --type rss|web_scraping|manual [--feed URL] [--website URL]
             [--include a,b] [--exclude c,d] [--config JSON]
                                                   add a source (--config: its scraping config)
  ingest [--canonical]                             run one RSS ingestion cycle over every polled source
                                                   (--canonical prefers each new item's rel=canonical)
${CRAWL_HELP}
${IMAGE_HELP}
${FACEBOOK_HELP}
${BACKUP_HELP}

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
        return await withDatabase(async (database, config) => {
          const repos = createRepos(database.db);
          const categoriesAdded = await ensureDefaultCategories(repos);
          if (!values.demo) {
            io.out(JSON.stringify({ categories_added: categoriesAdded }));
            return;
          }
          io.out(JSON.stringify(await seedDemo({ repos }, { adminPassword: demoAdminPassword(config.dataDir) })));
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
      case "parse-feed": {
        const target = onePositional(rest, "parse-feed needs one FILE or URL");
        const input = await readTarget(target);
        const feed = parseFeed({ bytes: input.bytes, contentType: input.contentType, url: input.url });
        io.out(
          JSON.stringify({
            format: feed.format,
            title: feed.title,
            siteUrl: feed.siteUrl,
            items: feed.items.map(({ title, link, guid, publishedAt, summary, contentHtml, imageUrl }) => ({
              title,
              link,
              guid,
              publishedAt,
              summary,
              contentHtml,
              imageUrl,
            })),
          }),
        );
        return 0;
      }
      case "validate-feed": {
        const url = onePositional(rest, "validate-feed needs one URL");
        const feedParser = createFeedParserPool({ logger: createLogger({ level: loadConfig().logLevel, fd: 2 }) });
        const result = await withHttp((http) => validateFeed({ http, parseFeed: feedParser.parse }, url)).finally(() => feedParser.close());
        io.out(JSON.stringify(result));
        return result.ok ? 0 : 1;
      }
      case "extract": {
        const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { "base-url": { type: "string" } } });
        if (positionals.length !== 1) throw new UsageError("extract needs one URL or FILE");
        const input = await readTarget(positionals[0] as string, { accept: PAGE_ACCEPT });
        const baseUrl = values["base-url"] ?? input.url ?? pathToFileURL(path.resolve(positionals[0] as string)).href;
        const article = extractArticle(decodeHtmlBytes(input.bytes, input.contentType), baseUrl);
        const { title, summary, imageUrl, canonicalUrl, publishedAt, text } = article;
        io.out(JSON.stringify({ title, summary, imageUrl, canonicalUrl, publishedAt, text }));
        return 0;
      }
      case "source:add": {
        const { values } = parseArgs({
          args: rest,
          options: {
            name: { type: "string" },
            type: { type: "string" },
            feed: { type: "string" },
            website: { type: "string" },
            include: { type: "string" },
            exclude: { type: "string" },
            config: { type: "string" },
          },
        });
        if (!values.name || !values.type) throw new UsageError("source:add needs --name and --type");
        const list = (v: string | undefined) => (v ?? "").split(",").map((s) => s.trim()).filter(Boolean);
        return await withDatabase(async (database) => {
          const source = await createSource(
            { sources: createRepos(database.db).sources },
            {
              actorUserId: null,
              form: {
                name: values.name as string,
                sourceType: values.type as string,
                rssFeedUrl: values.feed ?? "",
                websiteUrl: values.website ?? "",
                includeKeywords: list(values.include),
                excludeKeywords: list(values.exclude),
                status: "active",
                scrapingConfig: values.config ?? "",
                notes: "",
                pollIntervalMinutes: "",
              },
            },
          );
          io.out(JSON.stringify(source));
        });
      }
      case "ingest": {
        const { values } = parseArgs({ args: rest, options: { canonical: { type: "boolean" } } });
        return await withDatabase(async (database, config) => {
          const logger = createLogger({ level: config.logLevel, fd: 2, secrets: configSecrets(config) });
          const feedParser = createFeedParserPool({ logger });
          const repos = createRepos(database.db);
          const result = await withHttp((guarded) =>
            runIngestionCycle(
              { repos, http: createPoliteness({ http: guarded, repos, logger, siteUrl: config.siteUrl }), logger, parseFeed: feedParser.parse },
              { scope: "all", useCanonical: values.canonical === true },
            ),
          ).finally(() => feedParser.close());
          io.out(JSON.stringify(result));
        });
      }
      default:
        {
          const tools: CliTools = { out: io.out, err: io.err, usage: (message) => new UsageError(message), withDatabase, withHttp, readTarget };
          if ((CRAWL_COMMANDS as readonly string[]).includes(command)) return await runCrawlCommand(command as (typeof CRAWL_COMMANDS)[number], rest, tools);
          if ((IMAGE_COMMANDS as readonly string[]).includes(command)) return await runImageCommand(command as (typeof IMAGE_COMMANDS)[number], rest, tools);
          if ((FACEBOOK_COMMANDS as readonly string[]).includes(command)) return await runFacebookCommand(command as (typeof FACEBOOK_COMMANDS)[number], rest, tools);
          if ((BACKUP_COMMANDS as readonly string[]).includes(command)) return await runBackupCommand(command as (typeof BACKUP_COMMANDS)[number], rest, tools);
        }
        throw new UsageError(`Unknown command "${command}". Run "oddwire --help" for the list.`);
    }
  } catch (error) {
    return report(io, error);
  }
}

async function withDatabase(work: (database: Database, config: Config) => Promise<void>): Promise<number> {
  const config = loadConfig();
  const database = await openConfiguredDatabase(config);
  try {
    await runMigrations(database);
    await work(database, config);
    return 0;
  } finally {
    await database.close();
  }
}

// The guarded client, as the server builds it; closed when the work is done.
async function withHttp<T>(work: (http: HttpClient) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const http = createGuardedClient({ userAgent: userAgentFor(config.siteUrl), allowHosts: config.fetchAllowHosts });
  try {
    return await work(http);
  } finally {
    await http.close();
  }
}

function onePositional(args: string[], usage: string): string {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  if (positionals.length !== 1) throw new UsageError(usage);
  return positionals[0] as string;
}

// A URL is fetched through the guarded client; anything else is read as a file.
async function readTarget(target: string, options: { accept?: string } = {}): Promise<{ bytes: Uint8Array; contentType: string | null; url: string | null }> {
  if (/^https?:\/\//i.test(target)) {
    const response = await withHttp((http) => http.fetch(target, options.accept ? { headers: { accept: options.accept } } : {}));
    if (response.status < 200 || response.status >= 300) throw new Error(`${target} answered HTTP ${response.status}`);
    return { bytes: response.body, contentType: response.contentType, url: response.url };
  }
  return { bytes: await readFile(target), contentType: null, url: null };
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
  else if (isDomainError(error)) print(error.code, error.message);
  else if (isFetchError(error)) print(error.code, error.message, { url: error.url });
  else if (isImageProbeError(error)) print(error.code, error.message, { url: error.url });
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
