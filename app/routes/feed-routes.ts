import { route, type RouteConfig } from "@react-router/dev/routes";

/** The machine outputs (RSS, sitemaps, robots.txt): resource routes, spread into app/routes.ts. */
export const feedRoutes = [
  route("rss.xml", "routes/feeds/rss.ts"),
  route("category/:slug/rss.xml", "routes/feeds/category-rss.ts"),
  route("sitemap.xml", "routes/feeds/sitemap-index.ts"),
  route("sitemaps/pages.xml", "routes/feeds/sitemap-pages.ts"),
  route("sitemaps/stories/:file", "routes/feeds/sitemap-stories.ts"),
  route("sitemaps/news.xml", "routes/feeds/sitemap-news.ts"),
  route("robots.txt", "routes/feeds/robots.ts"),
] satisfies RouteConfig;
