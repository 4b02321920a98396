// Every table of the database, one module per part of the product (db/tables/), gathered here:
// drizzle-kit generates the migrations from this file, and the code imports tables from it.
import { accounts, sessions, users, verifications } from "./tables/accounts";
import { categories, rejectedStories, sources, stories, triageModels } from "./tables/editorial";
import { candidateOutcome, imageProcessingStatus, jobStatus, socialPlatform, socialPostStatus, sourceStatus, sourceType, storyStatus, urlQueueStatus } from "./tables/enums";
import { feedProcessingLog, scrapedCandidates, urlQueue } from "./tables/ingestion";
import { auditLog, jobs } from "./tables/operations";
import { socialMediaPosts } from "./tables/social";

export * from "./tables/accounts";
export * from "./tables/editorial";
export * from "./tables/enums";
export * from "./tables/ingestion";
export * from "./tables/operations";
export * from "./tables/social";

export const schema = {
  storyStatus,
  imageProcessingStatus,
  sourceType,
  sourceStatus,
  urlQueueStatus,
  socialPlatform,
  socialPostStatus,
  candidateOutcome,
  jobStatus,
  categories,
  sources,
  stories,
  rejectedStories,
  triageModels,
  urlQueue,
  socialMediaPosts,
  feedProcessingLog,
  scrapedCandidates,
  users,
  sessions,
  accounts,
  verifications,
  jobs,
  auditLog,
};
