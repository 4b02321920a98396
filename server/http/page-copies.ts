import { createHash, randomBytes } from "node:crypto";
import { mkdir, open, readdir, readFile, rename, stat, unlink } from "node:fs/promises";
import path from "node:path";
import { eachLimit } from "~/lib/each-limit";
import type { Encoding, Entry } from "./page-entry";
import { systemClock, type Clock } from "~/lib/clock";

/**
 * What the last good copies of public pages may take on disk at most, by default: about 2,400 pages of
 * 40 KB kept with their br and gzip forms (53 KB in all), ten times what one web process keeps in
 * memory, for the pages read in the ten minutes a copy may be served. Between two sweeps each web
 * process may write `maxBytes / SWEEP_EVERY` more (8 MB here) before it trims the directory again.
 */
export const DEFAULT_PAGE_COPIES_MAX_BYTES = 128 * 1024 * 1024;
/** A process sweeps the directory (oldest copies out) each time it has written this fraction of the bound. */
const SWEEP_EVERY = 16;
/** A temporary file older than this was left by a process that died while writing it. */
const ABANDONED_TEMP_MS = 60_000;
/** How many files a sweep looks at (stat, unlink) at once: a few, to leave libuv's pool to compression. */
const SWEEP_CONCURRENCY = 16;
const MAGIC = Buffer.from("OWPC1\n");
const COPY_SUFFIX = ".page";
const TEMP_SUFFIX = ".tmp";

type Header = {
  key: string;
  version: string;
  status: number;
  headers: Entry["headers"];
  storedAt: number;
  variants: [Encoding, string, number][];
};

export type PageCopies = ReturnType<typeof createPageCopies>;

/**
 * The last good copies of public pages, as files every web process on the machine reads (decision
 * 004): a page's copy is written after a good render, off the answer's path, and read only when a
 * render fails. Each copy is one file named by the SHA-256 of its cache key (never a path taken from
 * the URL), written to a temporary file and renamed over the old one, so a reader finds the old copy
 * or the new one, whole, never a part. A file that does not read back whole (a crash before the disk
 * had it) counts as no copy. Copies older than `maxAgeMs` are never read, and the directory is kept
 * to `maxBytes` by dropping the oldest. `version` names the build: a copy another build wrote links to
 * scripts and styles this one does not have, so it is not read. `now` is the clock ages are measured
 * by (tests pass their own); it also dates the files.
 */
export function createPageCopies(options: { dir: string; maxAgeMs: number; maxBytes?: number; version?: string; now?: Clock }) {
  const { dir, maxAgeMs } = options;
  const maxBytes = options.maxBytes ?? DEFAULT_PAGE_COPIES_MAX_BYTES;
  const version = options.version ?? "";
  const now = options.now ?? systemClock;
  // Made on the first write; tried again on the next if it could not be (the error goes to that write).
  let made: Promise<unknown> | null = null;
  const madeDir = () =>
    (made ??= mkdir(dir, { recursive: true, mode: 0o700 }).catch((error: unknown) => {
      made = null;
      throw error;
    }));
  let writtenSinceSweep = 0;
  let sweeping: Promise<void> | null = null;

  const fileOf = (key: string) => path.join(dir, createHash("sha256").update(key).digest("hex") + COPY_SUFFIX);

  /** Drops abandoned temporary files, copies too old to be served, then the oldest until the rest fit in maxBytes. */
  async function sweepNow(): Promise<void> {
    const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return [];
      throw error;
    });
    const copies: { file: string; size: number; mtimeMs: number }[] = [];
    const doomed: string[] = [];
    await eachLimit(names, SWEEP_CONCURRENCY, async (name) => {
      const file = path.join(dir, name);
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) return;
      const age = now() - info.mtimeMs;
      if (name.endsWith(TEMP_SUFFIX)) {
        if (age >= ABANDONED_TEMP_MS) doomed.push(file);
      } else if (name.endsWith(COPY_SUFFIX)) {
        if (age >= maxAgeMs) doomed.push(file);
        else copies.push({ file, size: info.size, mtimeMs: info.mtimeMs });
      }
    });
    let total = copies.reduce((sum, copy) => sum + copy.size, 0);
    copies.sort((a, b) => a.mtimeMs - b.mtimeMs);
    for (const copy of copies) {
      if (total <= maxBytes) break;
      doomed.push(copy.file);
      total -= copy.size;
    }
    // Another process may be sweeping too: a file already gone is what was wanted.
    await eachLimit(doomed, SWEEP_CONCURRENCY, (file) => unlink(file).catch(() => undefined));
  }

  /** One sweep at a time in this process; a call while one runs waits for it. */
  function sweep(): Promise<void> {
    sweeping ??= sweepNow().finally(() => (sweeping = null));
    return sweeping;
  }

  return {
    /**
     * Writes `entry` as the copy of `key`, replacing the one kept, and trims the directory when this
     * process has written enough since it last did. Resolves once both are done.
     */
    async keep(key: string, entry: Entry): Promise<void> {
      const data = serialize(key, version, entry);
      const file = fileOf(key);
      const temp = `${file}.${process.pid}.${randomBytes(6).toString("hex")}${TEMP_SUFFIX}`;
      await madeDir();
      try {
        const handle = await open(temp, "wx", 0o600);
        try {
          await handle.writeFile(data);
          // Dated by the page's render, on the clock the ages are read by (sweeps order copies by it).
          const seconds = entry.storedAt / 1000;
          await handle.utimes(seconds, seconds);
        } finally {
          await handle.close();
        }
        await rename(temp, file);
      } catch (error) {
        await unlink(temp).catch(() => undefined);
        throw error;
      }
      writtenSinceSweep += data.length;
      if (writtenSinceSweep >= maxBytes / SWEEP_EVERY) {
        writtenSinceSweep = 0;
        await sweep();
      }
    },
    /** The copy kept for `key`, if there is a whole one of this build under `maxAgeMs` old. */
    async read(key: string): Promise<Entry | undefined> {
      const data = await readFile(fileOf(key)).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return null;
        throw error;
      });
      const entry = data && deserialize(data, key, version);
      return entry && now() - entry.storedAt < maxAgeMs ? entry : undefined;
    },
    sweep,
    dir,
  };
}

/** A copy's bytes: a marker, the length of a JSON header, the header, then each variant's body in turn. */
function serialize(key: string, version: string, entry: Entry): Buffer {
  const variants = (Object.entries(entry.variants) as [Encoding, { body: Buffer; etag: string }][]).filter(([, variant]) => variant);
  const header: Header = {
    key,
    version,
    status: entry.status,
    headers: entry.headers,
    storedAt: entry.storedAt,
    variants: variants.map(([encoding, variant]) => [encoding, variant.etag, variant.body.length]),
  };
  const json = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(json.length);
  return Buffer.concat([MAGIC, length, json, ...variants.map(([, variant]) => variant.body)]);
}

/** The entry a copy holds; null when it is not whole, is another key's (a hash collision) or another build's. */
function deserialize(data: Buffer, key: string, version: string): Entry | null {
  if (data.length < MAGIC.length + 4 || !data.subarray(0, MAGIC.length).equals(MAGIC)) return null;
  const jsonLength = data.readUInt32BE(MAGIC.length);
  let offset = MAGIC.length + 4 + jsonLength;
  if (offset > data.length) return null;
  let header: Header;
  try {
    header = JSON.parse(data.subarray(MAGIC.length + 4, offset).toString("utf8")) as Header;
  } catch {
    return null;
  }
  if (header.key !== key || header.version !== version) return null;
  const bodies = header.variants.reduce((sum, [, , bytes]) => sum + bytes, 0);
  if (offset + bodies !== data.length) return null;
  const variants: Partial<Entry["variants"]> = {};
  for (const [encoding, etag, bytes] of header.variants) {
    variants[encoding] = { body: data.subarray(offset, offset + bytes), etag };
    offset += bytes;
  }
  if (!variants.identity) return null;
  return { status: header.status, headers: header.headers, variants: variants as Entry["variants"], storedAt: header.storedAt };
}
