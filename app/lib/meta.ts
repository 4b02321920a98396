// Helpers for route meta functions: the site's absolute URL comes from the public layout's data.
type MatchLike = { id: string; data?: unknown } | undefined;

/** The site URL (no trailing slash) from the public layout's loader data. */
export function siteUrlFrom(matches: MatchLike[]): string {
  const layout = matches.find((m) => m?.id === "routes/public-layout");
  return (layout?.data as { siteUrl?: string } | undefined)?.siteUrl ?? "";
}

/** Title, description and canonical link for a public page. */
export function pageMeta(options: { title: string; description?: string; siteUrl: string; path: string }) {
  return [
    { title: options.title },
    ...(options.description ? [{ name: "description", content: options.description }] : []),
    { tagName: "link", rel: "canonical", href: `${options.siteUrl}${options.path}` },
  ];
}

/** Title and noindex for a back-office screen: the screen's name first, as the public pages put theirs. */
export function adminMeta(screen?: string) {
  return [{ title: screen ? `${screen} | Oddwire admin` : "Oddwire admin" }, { name: "robots", content: "noindex" }];
}
