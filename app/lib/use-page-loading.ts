import { useNavigation, type Location } from "react-router";

const withoutSlash = (path: string) => path.replace(/(.)\/$/, "$1");

/**
 * The back office's one "is this page loading" check: the address a navigation to this screen's own
 * path is loading (a filter, a search, a reload of its list), or null when none is under way. A
 * navigation to another screen is not this page loading: that screen shows its own state.
 */
export function usePageLoading(path: string): Location | null {
  const navigation = useNavigation();
  return navigation.state === "loading" && withoutSlash(navigation.location.pathname) === withoutSlash(path) ? navigation.location : null;
}
