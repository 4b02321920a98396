import type { HttpClient } from "~/integrations/http/types";

/** The spec's RSS validation result (section 3). */
export type RssValidationResult = {
  ok: boolean;
  type: string | null;
  code: string | null;
  error: string | null;
  meta: { contentType: string | null; bytes: number };
  info: { title: string | null; description: string | null; itemsCount: number; lastUpdated: string | null };
  sample: { title: string | null; link: string | null; pubDate: string | null }[];
};

/** Fetches a feed URL through the guarded client and reports whether it is a usable feed. */
export async function validateFeed(_deps: { http: HttpClient }, _url: string): Promise<RssValidationResult> {
  throw new Error("validateFeed is not built yet");
}
