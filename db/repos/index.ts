import type { Db } from "../client";
import { auditRepo } from "./audit.repo";
import { categoriesRepo } from "./categories.repo";
import { editorialRepo } from "./editorial.repo";
import { ingestionRepo } from "./ingestion.repo";
import { jobsRepo } from "./jobs.repo";
import { publicStoriesRepo } from "./public-stories.repo";
import { sourcesRepo } from "./sources.repo";
import { storiesRepo } from "./stories.repo";
import { usersRepo } from "./users.repo";

/** Every repository over one database handle. */
export function createRepos(db: Db) {
  return {
    audit: auditRepo(db),
    categories: categoriesRepo(db),
    editorial: editorialRepo(db),
    ingestion: ingestionRepo(db),
    jobs: jobsRepo(db),
    publicStories: publicStoriesRepo(db),
    sources: sourcesRepo(db),
    stories: storiesRepo(db),
    users: usersRepo(db),
  };
}
export type Repos = ReturnType<typeof createRepos>;
