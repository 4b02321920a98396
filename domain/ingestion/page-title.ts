import type { HttpClient } from "~/integrations/http/types";

/** The title of a web page, for the watchlist; null when the page cannot be read. */
export async function fetchPageTitle(_deps: { http: HttpClient }, _url: string): Promise<{ title: string | null }> {
  throw new Error("fetchPageTitle is not built yet");
}
