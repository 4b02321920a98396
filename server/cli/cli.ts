import { parseArgs } from "node:util";
import { BACKUP_COMMANDS, CORE_COMMANDS, CRAWL_COMMANDS, FACEBOOK_COMMANDS, HELP, IMAGE_COMMANDS, TRIAGE_COMMANDS } from "./cli-commands";
import type { CliTools } from "./cli-tools";

// The oddwire command. This module loads nothing but the list of commands: each command imports
// what it needs when it runs, so `--help` or `normalize-url` answer without loading the database,
// the HTTP client or the site.

/** Where the command prints and reads: stdin is read only for its lines, and only when it is not a terminal. */
type Io = { out: (line: string) => void; err: (line: string) => void; stdin: Stdin };
type Stdin = AsyncIterable<unknown> & { isTTY?: boolean };

class UsageError extends Error {}

type Group = { commands: readonly string[]; run: (command: string, args: string[], tools: CliTools) => Promise<number> };

// Each group's module, imported only when one of its commands runs.
const GROUPS: Group[] = [
  { commands: CORE_COMMANDS, run: async (command, args, tools) => (await import("./cli-core")).runCoreCommand(command as (typeof CORE_COMMANDS)[number], args, tools) },
  { commands: CRAWL_COMMANDS, run: async (command, args, tools) => (await import("./cli-crawl")).runCrawlCommand(command as (typeof CRAWL_COMMANDS)[number], args, tools) },
  { commands: IMAGE_COMMANDS, run: async (command, args, tools) => (await import("./cli-images")).runImageCommand(command as (typeof IMAGE_COMMANDS)[number], args, tools) },
  {
    commands: FACEBOOK_COMMANDS,
    run: async (command, args, tools) => (await import("./cli-facebook")).runFacebookCommand(command as (typeof FACEBOOK_COMMANDS)[number], args, tools),
  },
  { commands: BACKUP_COMMANDS, run: async (command, args, tools) => (await import("./cli-backup")).runBackupCommand(command as (typeof BACKUP_COMMANDS)[number], args, tools) },
  { commands: TRIAGE_COMMANDS, run: async (command, args, tools) => (await import("./cli-triage")).runTriageCommand(command as (typeof TRIAGE_COMMANDS)[number], args, tools) },
];

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
        const [{ serve }, { loadConfig }] = await Promise.all([import("../processes/serve"), import("../config")]);
        await serve({ config: loadConfig(), demo: values.demo === true });
        return 0;
      }
      case "normalize-url": {
        const { positionals } = parseArgs({ args: rest, allowPositionals: true, options: {} });
        const inputs = positionals.length > 0 ? positionals : await readLines(io.stdin);
        if (inputs.length === 0) throw new UsageError("normalize-url needs at least one URL");
        const { normalizeUrl } = await import("~/lib/normalize-url");
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
      default: {
        const group = GROUPS.find((candidate) => command !== undefined && candidate.commands.includes(command));
        if (!group) throw new UsageError(`Unknown command "${command}". Run "oddwire --help" for the list.`);
        const { createCliTools } = await import("./cli-tools");
        return await group.run(command as string, rest, createCliTools({ out: io.out, err: io.err, usage: (message) => new UsageError(message) }));
      }
    }
  } catch (error) {
    return await report(io, error);
  }
}

async function report(io: Io, error: unknown): Promise<number> {
  const print = (code: string, message: string, extra: Record<string, unknown> = {}) =>
    io.err(JSON.stringify({ error: { code, message, ...extra } }));
  if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
    print("USAGE", (error as Error).message);
    return 2;
  }
  // The kinds of error a command can end with, loaded only when one did.
  const [{ ConfigError }, { EmbeddedServerError }, { ListenError }, { isDomainError }, { isFetchError }, { isImageProbeError }] = await Promise.all([
    import("../config"),
    import("~/db/embedded/errors"),
    import("../http/listen-error"),
    import("~/domain/errors"),
    import("~/integrations/http/fetch-error"),
    import("~/integrations/images/probe"),
  ]);
  if (error instanceof ConfigError) print(error.code, error.message, { problems: error.problems });
  else if (error instanceof EmbeddedServerError || error instanceof ListenError) print(error.code, error.message);
  else if (isDomainError(error)) print(error.code, error.message);
  else if (isFetchError(error)) print(error.code, error.message, { url: error.url });
  else if (isImageProbeError(error)) print(error.code, error.message, { url: error.url });
  else {
    const cause = (error as Error).cause as Error | undefined;
    print("FAILED", (error as Error).message ?? String(error), cause?.message ? { cause: cause.message } : {});
  }
  return 1;
}

async function readLines(stdin: Stdin): Promise<string[]> {
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
