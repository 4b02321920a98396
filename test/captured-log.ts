import { Writable } from "node:stream";
import pino from "pino";

/**
 * For tests: a pino logger whose lines are kept, parsed, in `lines` (emptied with `lines.length = 0`),
 * so a test asserts on what was logged at which level rather than on calls.
 */
export function capturedLog<Line = { level: number; msg: string }>(level: pino.LevelWithSilent = "trace") {
  const lines: Line[] = [];
  const logger = pino(
    { level },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line) as Line);
        done();
      },
    }),
  );
  return { logger, lines };
}
