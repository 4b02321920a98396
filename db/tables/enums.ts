import { pgEnum } from "drizzle-orm/pg-core";

// Every enum type of the schema.
export const storyStatus = pgEnum("story_status", ["published", "pending", "rejected"]);
export const imageProcessingStatus = pgEnum("image_processing_status", [
  "pending",
  "processing",
  "completed",
  "skipped",
  "failed",
]);
export const sourceType = pgEnum("source_type", ["rss", "web_scraping", "manual"]);
export const sourceStatus = pgEnum("source_status", ["active", "inactive", "error"]);
export const urlQueueStatus = pgEnum("url_queue_status", ["queued", "scraped", "failed"]);
export const socialPlatform = pgEnum("social_platform", ["facebook"]);
export const socialPostStatus = pgEnum("social_post_status", ["pending", "posted", "failed"]);
export const candidateOutcome = pgEnum("candidate_outcome", [
  "inserted",
  "duplicate",
  "previously_rejected",
  "filtered_out",
  "failed",
]);
export const jobStatus = pgEnum("job_status", ["queued", "running", "succeeded", "failed", "cancelled"]);
