import { spawnSync } from "node:child_process";
import { existsSync, rmSync, statSync } from "node:fs";
import { createConnection } from "node:net";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import { openDatabase, type Database } from "~/db/client";
import { BACKUP_SOCKET, backupSocketPath, listenForBackups, requestServerBackup, snapshotDatabase } from "./backup";
import { createLogger } from "./logger";
import { tempDir as newTempDir } from "~/test/temp-dir";

const logger = createLogger({ level: "silent" });
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = newTempDir("oddwire-backup-");
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function open(options: Parameters<typeof openDatabase>[0]): Promise<Database & { kind: "pglite" }> {
  const database = await openDatabase(options);
  cleanups.push(() => database.close());
  if (database.kind !== "pglite") throw new Error("expected the embedded database");
  return database;
}

const restoredRows = async (bytes: Uint8Array) => {
  const copy = await open({ dataDir: null, pgliteDump: new Blob([new Uint8Array(bytes)], { type: "application/gzip" }) });
  return (await copy.pglite.query<{ note: string }>("SELECT note FROM notes ORDER BY note")).rows.map((row) => row.note);
};

test("a snapshot holds every committed transaction and none that is still open", async () => {
  const database = await open({ dataDir: tempDir() });
  await database.pglite.exec("CREATE TABLE notes (note text); INSERT INTO notes VALUES ('committed before')");

  let bytes: Uint8Array = new Uint8Array();
  await database.pglite.transaction(async (tx) => {
    await tx.query("INSERT INTO notes VALUES ('open during the snapshot')");
    // The snapshot does not wait for the transaction: it is taken between two of its statements.
    bytes = (await snapshotDatabase(database)).bytes;
  });
  await database.pglite.exec("INSERT INTO notes VALUES ('committed after')");

  expect(await restoredRows(bytes)).toEqual(["committed before"]);
}, 60_000);

test("a running server gives a snapshot over its owner-only socket, refuses other requests, and removes the socket when it stops", async () => {
  const dataDir = tempDir();
  const database = await open({ dataDir: null });
  await database.pglite.exec("CREATE TABLE notes (note text); INSERT INTO notes VALUES ('served')");
  const endpoint = await listenForBackups({ database, dataDir, logger });
  const socketPath = path.join(dataDir, BACKUP_SOCKET);
  expect(endpoint.socketPath).toBe(socketPath);
  expect(statSync(socketPath).mode & 0o777).toBe(0o600);

  const answer = await requestServerBackup(dataDir);
  expect(answer?.pid).toBe(process.pid);
  expect(await restoredRows(answer!.bytes)).toEqual(["served"]);

  const refused = await new Promise<string>((resolve, reject) => {
    let text = "";
    const socket = createConnection(socketPath, () => socket.write("drop everything\n"));
    socket.on("data", (chunk: Buffer) => (text += chunk.toString()));
    socket.once("end", () => resolve(text));
    socket.once("error", reject);
  });
  expect(JSON.parse(refused)).toEqual({ ok: false, message: "unknown request" });

  await endpoint.close();
  expect(existsSync(socketPath)).toBe(false);
  expect(await requestServerBackup(dataDir)).toBeNull();
}, 60_000);

test("a socket left by a server that was killed answers no one, and the next server replaces it", async () => {
  const dataDir = tempDir();
  const socketPath = path.join(dataDir, BACKUP_SOCKET);
  // A process killed while listening leaves its socket file behind, with nothing listening on it.
  const killed = spawnSync(process.execPath, ["-e", `require("node:net").createServer().listen(${JSON.stringify(socketPath)}, () => process.kill(process.pid, "SIGKILL"))`]);
  expect(killed.signal).toBe("SIGKILL");
  expect(statSync(socketPath).isSocket()).toBe(true);
  expect(await requestServerBackup(dataDir)).toBeNull();

  const database = await open({ dataDir: null });
  await database.pglite.exec("CREATE TABLE notes (note text); INSERT INTO notes VALUES ('next server')");
  const endpoint = await listenForBackups({ database, dataDir, logger });
  cleanups.push(() => endpoint.close());
  expect(await restoredRows((await requestServerBackup(dataDir))!.bytes)).toEqual(["next server"]);
}, 60_000);

test("a DATA_DIR whose path is too long for a socket gets no socket, and the server still starts", async () => {
  const longDir = path.join(tempDir(), "x".repeat(120));
  expect(backupSocketPath(longDir)).toBeNull();
  const database = await open({ dataDir: null });
  const endpoint = await listenForBackups({ database, dataDir: longDir, logger });
  expect(endpoint.socketPath).toBeNull();
  await endpoint.close();
  expect(await requestServerBackup(longDir)).toBeNull();
});
