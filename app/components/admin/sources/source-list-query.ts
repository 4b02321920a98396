import { choiceFilter, flagFilter, listQuery, textFilter } from "~/app/lib/list-query";
import { SOURCE_SORTS } from "~/domain/triage/yield";

/** The windows of the yield figures, as the address writes them. */
export const YIELD_WINDOW_PARAMS = ["7", "30", "90"] as const;

/**
 * The Sources tab's filters in the address: the search (?q=), the sources in trouble only
 * (?trouble=1), the window of the yield figures (?window=7|90, 30 by default) and the order
 * (?sort=best-yield|worst-yield, newest first by default).
 */
export const SOURCE_LIST = listQuery({
  q: textFilter("q"),
  troubled: flagFilter("trouble"),
  window: choiceFilter("window", YIELD_WINDOW_PARAMS, "30"),
  sort: choiceFilter("sort", SOURCE_SORTS, "newest"),
});

export const SOURCES_PATH = "/admin/sources";
export type SourceListQuery = ReturnType<typeof SOURCE_LIST.read>;
