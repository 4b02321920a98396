import { pipeline, Readable, type Transform } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from "node:zlib";
import { FetchError, isFetchError } from "./fetch-error";

type Chunks = AsyncIterable<Buffer>;
type Decoder = (source: Chunks) => AsyncGenerator<Buffer>;

/** The codings we advertise in Accept-Encoding and can undo. */
export const ACCEPT_ENCODING = "gzip, deflate, br";

const DECODERS: Record<string, () => Decoder> = {
  gzip: () => throughZlib(() => createGunzip()),
  "x-gzip": () => throughZlib(() => createGunzip()),
  // "deflate" should be zlib-wrapped, but some servers send raw deflate: the first byte tells which.
  deflate: () => throughZlib((first) => ((first[0]! & 0x0f) === 0x08 ? createInflate() : createInflateRaw())),
  br: () => throughZlib(() => createBrotliDecompress()),
};

/**
 * Runs chunks through a zlib stream chosen from the first chunk. Pulling from the stream one chunk at
 * a time keeps zlib's own back-pressure, so a bomb inflates only as far as the reader asks.
 */
function throughZlib(make: (first: Buffer) => Transform): Decoder {
  return async function* (source) {
    const iterator = source[Symbol.asyncIterator]();
    let first = await iterator.next();
    while (!first.done && first.value.length === 0) first = await iterator.next();
    if (first.done) return; // an empty body stays empty, whatever its declared coding
    const head = first.value;
    const input = Readable.from(
      (async function* () {
        try {
          yield head;
          for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
        } finally {
          await iterator.return?.();
        }
      })(),
    );
    const decoder = make(head);
    // Errors of either side surface through the iteration below, so the callback has nothing to add.
    pipeline(input, decoder, () => undefined);
    yield* decoder as AsyncIterable<Buffer>;
  };
}

/**
 * Reads a response body, undoing its Content-Encoding and refusing more than `maxBytes` after
 * decoding. An unknown coding leaves the bytes as sent (parsers downstream judge them). With
 * `firstBytes`, reading stops once that many decoded bytes are in (an image's header), and the
 * connection is dropped: the rest is never downloaded.
 */
export async function readDecodedBody(
  body: Readable,
  contentEncoding: string | undefined,
  maxBytes: number,
  url: string,
  firstBytes?: number,
): Promise<Buffer> {
  const codings = (contentEncoding ?? "")
    .split(",")
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== "" && coding !== "identity");
  const known = codings.every((coding) => coding in DECODERS);
  const decoders = known ? codings.reverse().map((coding) => DECODERS[coding]!()) : [];

  const transportErrors = new Set<unknown>();
  body.on("error", (error) => transportErrors.add(error));
  let chunks: Chunks = body;
  for (const decode of decoders) chunks = decode(chunks);

  const parts: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of chunks) {
      if (firstBytes !== undefined && total + chunk.length >= firstBytes) {
        parts.push(chunk.subarray(0, firstBytes - total));
        total = firstBytes;
        break;
      }
      total += chunk.length;
      if (total > maxBytes) {
        throw new FetchError("BODY_TOO_LARGE", url, `body exceeds ${maxBytes} bytes after decoding`);
      }
      parts.push(chunk);
    }
  } catch (error) {
    if (isFetchError(error) || transportErrors.has(error) || body.errored === error) throw error;
    throw new FetchError("DECODE_ERROR", url, `cannot decode a ${codings.join(", ")} body`, { cause: error });
  } finally {
    if (!body.readableEnded && !body.destroyed) body.destroy();
  }
  return Buffer.concat(parts, total);
}
