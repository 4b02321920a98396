import { errorMessage } from "~/lib/error-message";
import { configSecrets } from "../config";
import { createLogger } from "../logger";
import { serve } from "./serve";
import { connectToPrimary } from "./web-cluster";
import { SEARCH_RATE_LIMITS } from "../http/web";

/** A web process of the cluster: serves the site with the primary's configuration until told to stop. */
export async function runWebProcess(): Promise<void> {
  const link = await connectToPrimary(SEARCH_RATE_LIMITS);
  const logger = createLogger({ level: link.config.logLevel, secrets: configSecrets(link.config) }).child({ webProcess: process.pid });
  try {
    await serve({ config: { ...link.config, role: "web" }, demo: link.demo, logger, webProcess: link });
  } catch (error) {
    logger.error({ err: errorMessage(error) }, "the web process could not start");
    process.exitCode = 1;
    process.disconnect();
  }
}
