import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { createRepos } from "~/db/repos";
import { ensureDefaultCategories } from "~/domain/categories/default-categories";
import { seedDemo } from "~/domain/demo/seed-demo";
import { PAGE_ACCEPT } from "~/domain/ingestion/accept";
import { parseFeed } from "~/domain/ingestion/feed/parse-feed";
import { runIngestionCycle } from "~/domain/ingestion/ingest";
import { validateFeed } from "~/domain/ingestion/validate-feed";
import { createSource } from "~/domain/sources/sources";
import { createUser, grantAdmin } from "~/domain/users/users";
import { extractArticle } from "~/integrations/extract/extract-article";
import { decodeHtmlBytes } from "~/lib/decode-bytes";
import type { CORE_COMMANDS } from "./cli-commands";
import type { CliTools } from "./cli-tools";
import { configSecrets, loadConfig } from "../config";
import { demoAdminPassword } from "../demo-admin";
import { createFeedParserPool } from "../processes/feed-parser-pool";
import { createLogger } from "../logger";
import { createPoliteness } from "../politeness";

// The commands on the database, feeds and articles that have no group of their own.

export async function runCoreCommand(command: (typeof CORE_COMMANDS)[number], args: string[], tools: CliTools): Promise<number> {
  switch (command) {
    case "migrate":
      parseArgs({ args, options: {} });
      return await tools.withDatabase(async (_database, config) => {
        tools.out(JSON.stringify({ migrated: true, database: config.databaseUrl ? "postgres" : "embedded" }));
      });
    case "seed": {
      const { values } = parseArgs({ args, options: { demo: { type: "boolean" } } });
      return await tools.withDatabase(async (database, config) => {
        const repos = createRepos(database.db);
        const categoriesAdded = await ensureDefaultCategories(repos);
        if (!values.demo) {
          tools.out(JSON.stringify({ categories_added: categoriesAdded }));
          return;
        }
        tools.out(JSON.stringify(await seedDemo({ repos }, { adminPassword: demoAdminPassword(config.dataDir) })));
      });
    }
    case "user:create": {
      const { values } = parseArgs({
        args,
        options: { email: { type: "string" }, password: { type: "string" }, admin: { type: "boolean" } },
      });
      if (!values.email || !values.password) throw tools.usage("user:create needs --email and --password");
      const { email, password } = values;
      return await tools.withDatabase(async (database) => {
        const user = await createUser(createRepos(database.db), { email, password, admin: values.admin === true });
        tools.out(JSON.stringify(user));
      });
    }
    case "user:grant-admin": {
      const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
      const [email] = positionals;
      if (!email || positionals.length !== 1) throw tools.usage("user:grant-admin needs exactly one e-mail address");
      return await tools.withDatabase(async (database) => {
        tools.out(JSON.stringify(await grantAdmin(createRepos(database.db), email)));
      });
    }
    case "parse-feed": {
      const target = onePositional(args, "parse-feed needs one FILE or URL", tools);
      const input = await tools.readTarget(target);
      const feed = parseFeed({ bytes: input.bytes, contentType: input.contentType, url: input.url });
      tools.out(
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
      const url = onePositional(args, "validate-feed needs one URL", tools);
      const feedParser = createFeedParserPool({ logger: createLogger({ level: loadConfig().logLevel, fd: 2 }) });
      const result = await tools.withHttp((http) => validateFeed({ http, parseFeed: feedParser.parse }, url)).finally(() => feedParser.close());
      tools.out(JSON.stringify(result));
      return result.ok ? 0 : 1;
    }
    case "extract": {
      const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { "base-url": { type: "string" } } });
      if (positionals.length !== 1) throw tools.usage("extract needs one URL or FILE");
      const input = await tools.readTarget(positionals[0] as string, { accept: PAGE_ACCEPT });
      const baseUrl = values["base-url"] ?? input.url ?? pathToFileURL(path.resolve(positionals[0] as string)).href;
      const article = extractArticle(decodeHtmlBytes(input.bytes, input.contentType), baseUrl);
      const { title, summary, imageUrl, canonicalUrl, publishedAt, text } = article;
      tools.out(JSON.stringify({ title, summary, imageUrl, canonicalUrl, publishedAt, text }));
      return 0;
    }
    case "source:add": {
      const { values } = parseArgs({
        args,
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
      if (!values.name || !values.type) throw tools.usage("source:add needs --name and --type");
      const list = (v: string | undefined) => (v ?? "").split(",").map((s) => s.trim()).filter(Boolean);
      return await tools.withDatabase(async (database) => {
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
        tools.out(JSON.stringify(source));
      });
    }
    case "ingest": {
      const { values } = parseArgs({ args, options: { canonical: { type: "boolean" } } });
      return await tools.withDatabase(async (database, config) => {
        const logger = createLogger({ level: config.logLevel, fd: 2, secrets: configSecrets(config) });
        const feedParser = createFeedParserPool({ logger });
        const repos = createRepos(database.db);
        const result = await tools.withHttp((guarded) =>
          runIngestionCycle(
            { repos, http: createPoliteness({ http: guarded, repos, logger, siteUrl: config.siteUrl }), logger, parseFeed: feedParser.parse },
            { scope: "all", useCanonical: values.canonical === true },
          ),
        ).finally(() => feedParser.close());
        tools.out(JSON.stringify(result));
      });
    }
  }
}

function onePositional(args: string[], usage: string, tools: CliTools): string {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  if (positionals.length !== 1) throw tools.usage(usage);
  return positionals[0] as string;
}
