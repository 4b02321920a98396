import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";
import { feedRoutes } from "./routes/feed-routes";

const legalPages = ["terms-of-service", "privacy-policy", "cookie-policy", "accessibility-statement", "contact-us"];

export default [
  layout("routes/public-layout.tsx", [
    index("routes/home.tsx"),
    route("category/:slug", "routes/category.tsx"),
    route("search", "routes/search.tsx"),
    route("story/:slug", "routes/story.tsx"),
    route("sitemap", "routes/site-map.tsx"),
    ...legalPages.map((path) => route(path, "routes/legal.tsx", { id: `legal-${path}` })),
    route("*", "routes/not-found.tsx"),
  ]),
  route("admin", "routes/admin/layout.tsx", [
    index("routes/admin/dashboard.tsx"),
    route("stories", "routes/admin/stories.tsx"),
    route("categories", "routes/admin/categories.tsx"),
    route("users", "routes/admin/users.tsx"),
    route("sources", "routes/admin/sources.tsx"),
    route("url-que", "routes/admin/url-queue.tsx"),
    route("social", "routes/admin/social.tsx"),
  ]),
  route("admin/sources.opml", "routes/admin/sources-opml.ts"),
  route("admin/api/validate-feed", "routes/admin/api.validate-feed.ts"),
  route("admin/api/scrape", "routes/admin/api.scrape.ts"),
  route("admin/api/page-title", "routes/admin/api.page-title.ts"),
  route("admin/api/ingestion", "routes/admin/api.ingestion.ts"),
  route("admin/api/jobs/:id", "routes/admin/api.jobs.ts"),
  route("admin/api/triage", "routes/admin/api.triage.ts"),
  route("admin/api/facebook", "routes/admin/api.facebook.ts"),
  route("reset-password", "routes/reset-password.tsx"),
  route("api/suggestions", "routes/api.suggestions.ts"),
  ...feedRoutes,
] satisfies RouteConfig;
