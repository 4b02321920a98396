// A separate Node process using the embedded server, for tests that need two processes or a kill -9.
// Argument: JSON { dataDir, role, settings?, outsideRoot?, insertRows?, then: "stop" | "hold" }.
// Prints one JSON line per event on stdout: {event:"log"|"started"|"inserted"|"error"|"stopped", ...}.
import pg from "pg";
import { startEmbeddedServer } from "~/db/embedded/server";

const args = JSON.parse(process.argv[2] ?? "{}") as {
  dataDir: string;
  role: "serve" | "command";
  settings?: Record<string, string | number>;
  outsideRoot?: string;
  insertRows?: number;
  then: "stop" | "hold";
};
const say = (event: object) => process.stdout.write(`${JSON.stringify(event)}\n`);
const logger = {
  info: (obj: object, msg: string) => say({ event: "log", level: "info", msg, ...obj }),
  warn: (obj: object, msg: string) => say({ event: "log", level: "warn", msg, ...obj }),
};

try {
  const server = await startEmbeddedServer({ dataDir: args.dataDir, role: args.role, settings: args.settings, outsideRoot: args.outsideRoot, logger });
  say({ event: "started", startedHere: server.startedHere, url: server.url, pid: process.pid });
  if (args.insertRows) {
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    await client.query("CREATE TABLE IF NOT EXISTS kept (n integer PRIMARY KEY)");
    await client.query("INSERT INTO kept SELECT generate_series(1, $1)", [args.insertRows]);
    await client.end();
    say({ event: "inserted", rows: args.insertRows });
  }
  if (args.then === "hold") {
    // Until the test closes our stdin (or kills us).
    process.stdin.resume();
    await new Promise((resolve) => process.stdin.once("end", resolve));
  }
  await server.stop();
  say({ event: "stopped" });
} catch (error) {
  say({ event: "error", code: (error as { code?: string }).code, message: (error as Error).message });
  process.exitCode = 1;
}
