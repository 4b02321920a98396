import type { ScrapingConfig } from "~/db/schema";
import type { FetchRequest } from "~/integrations/http/types";

/**
 * What a source's scraping config asks of every request made for it, for the politeness gate: its
 * crawlDelay (ms) and its User-Agent. Absent or unusable values are left out, so the gate's own apply.
 */
export function sourcePace(config: ScrapingConfig | Record<string, unknown> | null | undefined): Pick<FetchRequest, "userAgent" | "crawlDelayMs"> {
  const crawlDelay = config?.crawlDelay;
  const agent = config?.userAgent;
  return {
    ...(typeof crawlDelay === "number" && Number.isFinite(crawlDelay) && crawlDelay >= 0 ? { crawlDelayMs: Math.floor(crawlDelay) } : {}),
    ...(typeof agent === "string" && agent.trim() !== "" ? { userAgent: agent.trim() } : {}),
  };
}
