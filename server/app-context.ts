import type { Repos } from "~/db/repos";
import type { Config } from "./config";
import type { Logger } from "./logger";

/** What the browser may know of the configuration: nothing secret. */
export type PublicConfig = { siteUrl: string; contactEmail: string; socialUrl: string };

/** Handed to every loader and action: the request's way to the domain. */
export type AppContext = {
  repos: Repos;
  config: PublicConfig;
  logger: Logger;
  /** Drops this process's cached public pages after an editorial change. */
  invalidatePublicPages: () => void;
};

/** The public subset of the configuration. */
export function publicConfig(config: Config): PublicConfig {
  return {
    siteUrl: config.siteUrl,
    contactEmail: config.contactEmail,
    socialUrl: config.facebook ? `https://www.facebook.com/${config.facebook.pageId}` : "https://www.facebook.com/",
  };
}

declare module "react-router" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends AppContext {}
}
