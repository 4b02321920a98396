import { createRequire } from "node:module";
import { isatty } from "node:tty";
import pino, { type Logger } from "pino";
import type PinoPretty from "pino-pretty";
import { secretScrubber } from "~/lib/scrub-secrets";

export type { Logger };

// Secrets and credentials never reach the log, whatever object carries them (by key; values below).
const REDACT = [
  "password",
  "*.password",
  "authSecret",
  "*.authSecret",
  "token",
  "*.token",
  "pageToken",
  "*.pageToken",
  "req.headers.cookie",
  "req.headers.authorization",
  'res.headers["set-cookie"]',
];

/**
 * The one structured logger: JSON lines, or short coloured lines when a person reads them in a
 * terminal (the output is a TTY). `pretty` decides instead when given.
 */
export function createLogger(
  options: {
    level?: string;
    name?: string;
    /** 2 sends lines to stderr (the CLI keeps stdout for its JSON). */
    fd?: 1 | 2;
    pretty?: boolean;
    /** The configured secret values (configSecrets): replaced wherever they appear in a line. */
    secrets?: readonly string[];
  } = {},
): Logger {
  const fd = options.fd ?? 1;
  const scrub = secretScrubber(options.secrets ?? []);
  const settings = {
    name: options.name ?? "oddwire",
    level: options.level ?? "info",
    redact: { paths: REDACT, censor: "[redacted]" },
    base: undefined,
    serializers: { err: serializeError },
    // `redact` knows keys, not values: a secret inside a string (an error's message, a URL) is caught
    // here, on the finished line, whatever field or message carries it.
    hooks: { streamWrite: scrub },
  };
  if (options.pretty ?? isatty(fd)) {
    // Loaded only for a person's terminal: a server writing JSON lines does not carry it.
    const pretty = createRequire(import.meta.url)("pino-pretty") as typeof PinoPretty;
    return pino(settings, pretty({ destination: fd, sync: true, colorize: true, translateTime: "SYS:HH:MM:ss", ignore: "name", singleLine: true }));
  }
  return pino(settings, pino.destination({ fd, sync: fd === 2 }));
}

/**
 * pino's error serializer, less what a database error carries besides itself: node-postgres puts
 * the client it came on (its connection, buffers and type tables) on the error, thousands of
 * characters of noise in every line that logs one.
 */
function serializeError(error: Error): Record<string, unknown> {
  const serialized = pino.stdSerializers.err(error) as unknown as Record<string, unknown>;
  delete serialized.client;
  return serialized;
}
