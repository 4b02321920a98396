import type { Logger } from "pino";
import { extractPageTitle } from "~/integrations/extract/extract-article";
import type { HttpClient } from "~/integrations/http/types";
import { decodeHtmlBytes } from "~/lib/decode-bytes";
import { PAGE_ACCEPT } from "./accept";
import { describeError } from "./describe-error";

/** The title of a web page, fetched through the guarded client, for the watchlist; null when the page cannot be read. */
export async function fetchPageTitle(deps: { http: HttpClient; logger?: Logger }, url: string): Promise<{ title: string | null }> {
  try {
    const response = await deps.http.fetch(url, { headers: { accept: PAGE_ACCEPT } });
    if (response.status < 200 || response.status >= 300 || !/html|xml/i.test(response.contentType ?? "text/html")) return { title: null };
    return { title: extractPageTitle(decodeHtmlBytes(response.body, response.contentType)) };
  } catch (error) {
    // Unreachable, refused or not a page: the watchlist shows the URL instead.
    deps.logger?.info({ url, err: describeError(error) }, "page title unavailable");
    return { title: null };
  }
}
