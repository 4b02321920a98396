import type { Repos } from "~/db/repos";
import type { Logger } from "./logger";

/** What the browser may know of the configuration: nothing secret. */
export type PublicConfig = { siteUrl: string; contactEmail: string };

/** Handed to every loader and action: the request's way to the domain. */
export type AppContext = { repos: Repos; config: PublicConfig; logger: Logger };

declare module "react-router" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends AppContext {}
}
