import pino, { type Logger } from "pino";

export type { Logger };

// Secrets and credentials never reach the log, whatever object carries them.
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

/** The one structured logger; JSON lines on stdout. */
export function createLogger(options: { level?: string; name?: string; /** 2 sends lines to stderr (the CLI keeps stdout for its JSON). */ fd?: 1 | 2 } = {}): Logger {
  return pino(
    {
      name: options.name ?? "oddwire",
      level: options.level ?? "info",
      redact: { paths: REDACT, censor: "[redacted]" },
      base: undefined,
    },
    pino.destination({ fd: options.fd ?? 1, sync: options.fd === 2 }),
  );
}
