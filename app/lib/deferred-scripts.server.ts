import { StringDecoder } from "node:string_decoder";
import { Transform } from "node:stream";
import { DEFERRED_SCRIPT_TYPE } from "./deferred-scripts";

// How the server defers a public page's scripts (see deferred-scripts.ts): React Router writes them
// as modulepreload links in <head> and one inline module script, which this rewrites.

const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*\/>/g;
const MODULE_SCRIPT = /<script([^>]*) type="module"([^>]*)>/g;

/** A complete piece of a page with its module preloads dropped and its module script made inert. */
export function deferScriptsIn(html: string): string {
  return html.replace(MODULE_PRELOAD, "").replace(MODULE_SCRIPT, `<script$1 type="${DEFERRED_SCRIPT_TYPE}"$2>`);
}

/**
 * A stream of a page's HTML with its scripts deferred (`deferScriptsIn`). A tag cut between two
 * chunks is held back until its end arrives, so every tag is rewritten whole.
 */
export function deferScripts(): Transform {
  const decoder = new StringDecoder("utf8");
  let held = "";
  return new Transform({
    transform(chunk: Buffer | string, _encoding, callback) {
      held += typeof chunk === "string" ? chunk : decoder.write(chunk);
      const open = held.lastIndexOf("<");
      const cut = open !== -1 && held.indexOf(">", open) === -1 ? open : held.length;
      const ready = held.slice(0, cut);
      held = held.slice(cut);
      callback(null, ready ? deferScriptsIn(ready) : undefined);
    },
    flush(callback) {
      held += decoder.end();
      callback(null, held ? deferScriptsIn(held) : undefined);
    },
  });
}
