import { createContext } from "react";

/**
 * The public pages' stylesheet (app/public.css), written into a public page's <head> on the server so
 * that its first paint waits for no request. app/entry.server.tsx provides it; in the browser it is
 * undefined, the style being in the page already.
 */
export const PublicStyle = createContext<string | undefined>(undefined);
