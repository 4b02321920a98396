import { flagFilter, listQuery, textFilter } from "~/app/lib/list-query";

/** The Sources tab's filters in the address: the search (?q=) and the sources in trouble only (?trouble=1). */
export const SOURCE_LIST = listQuery({ q: textFilter("q"), troubled: flagFilter("trouble") });

export const SOURCES_PATH = "/admin/sources";
