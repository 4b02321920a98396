import type { Db } from "../client";
import { auditRepo } from "./audit.repo";
import { categoriesRepo } from "./categories.repo";
import { crawlRepo } from "./crawl.repo";
import { editorialRepo } from "./editorial.repo";
import { imagesRepo } from "./images.repo";
import { ingestionRepo } from "./ingestion.repo";
import { jobsRepo } from "./jobs.repo";
import { metricsRepo } from "./metrics.repo";
import { publicStoriesRepo } from "./public-stories.repo";
import { rateLimitsRepo } from "./rate-limits.repo";
import { socialRepo } from "./social.repo";
import { sourcesRepo } from "./sources.repo";
import { storiesRepo } from "./stories.repo";
import { triageRepo } from "./triage.repo";
import { usersRepo } from "./users.repo";

/** Every repository over one database handle. */
export function createRepos(db: Db) {
  return {
    audit: auditRepo(db),
    categories: categoriesRepo(db),
    crawl: crawlRepo(db),
    editorial: editorialRepo(db),
    images: imagesRepo(db),
    ingestion: ingestionRepo(db),
    jobs: jobsRepo(db),
    metrics: metricsRepo(db),
    publicStories: publicStoriesRepo(db),
    rateLimits: rateLimitsRepo(db),
    social: socialRepo(db),
    sources: sourcesRepo(db),
    stories: storiesRepo(db),
    triage: triageRepo(db),
    users: usersRepo(db),
  };
}
export type Repos = ReturnType<typeof createRepos>;
