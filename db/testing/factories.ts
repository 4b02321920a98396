import { randomUUID } from "node:crypto";
import type { Db } from "../client";
import {
  auditLog,
  categories,
  feedProcessingLog,
  jobs,
  rejectedStories,
  scrapedCandidates,
  sessions,
  socialMediaPosts,
  sources,
  stories,
  urlQueue,
  users,
} from "../schema";
import { normalizeUrl } from "~/lib/normalize-url";
import { slugify } from "~/lib/slug";

// Test data factories: each inserts one row with sensible defaults and returns it.
// Unique values come from one counter, so rows never collide within a test.
let counter = 0;
const next = () => ++counter;

function hashedUrl(url: string) {
  const result = normalizeUrl(url);
  if (!result.ok) throw new Error(`factory URL is invalid: ${url}`);
  return { normalizedUrl: result.normalized, urlHash: result.hash };
}

async function one<T>(rows: Promise<T[]>): Promise<T> {
  const [row] = await rows;
  if (row === undefined) throw new Error("insert returned no row");
  return row;
}

export function makeCategory(db: Db, overrides: Partial<typeof categories.$inferInsert> = {}) {
  const n = next();
  return one(
    db
      .insert(categories)
      .values({ name: `Category ${n}`, slug: `category-${n}`, displayOrder: n, ...overrides })
      .returning(),
  );
}

export function makeSource(db: Db, overrides: Partial<typeof sources.$inferInsert> = {}) {
  const n = next();
  return one(
    db
      .insert(sources)
      .values({
        name: `Source ${n}`,
        sourceType: "rss",
        websiteUrl: `https://source-${n}.example`,
        rssFeedUrl: `https://source-${n}.example/feed.xml`,
        ...overrides,
      })
      .returning(),
  );
}

export function makeStory(db: Db, overrides: Partial<typeof stories.$inferInsert> = {}) {
  const n = next();
  const title = overrides.title ?? `Odd story number ${n}`;
  const originalUrl = overrides.originalUrl ?? `https://news.example/stories/${n}`;
  const status = overrides.status ?? "published";
  return one(
    db
      .insert(stories)
      .values({
        title,
        summary: `Summary of ${title}.`,
        content: `Content of ${title}.`,
        originalUrl,
        ...hashedUrl(originalUrl ?? `https://news.example/stories/${n}`),
        slug: `${slugify(title)}-${n}`,
        status,
        publishDate: status === "published" ? new Date(Date.now() - n * 60_000) : null,
        ...overrides,
      })
      .returning(),
  );
}

export function makeRejectedStory(db: Db, overrides: Partial<typeof rejectedStories.$inferInsert> = {}) {
  const n = next();
  const originalUrl = overrides.originalUrl ?? `https://news.example/rejected/${n}`;
  return one(
    db
      .insert(rejectedStories)
      .values({
        title: `Rejected story ${n}`,
        originalUrl,
        ...hashedUrl(originalUrl ?? `https://news.example/rejected/${n}`),
        rejectionReason: "manual_rejection",
        rejectionDetails: {
          rejection_method: "admin_manual",
          original_story_id: null,
          rejected_by_admin: true,
          rejected_at: new Date().toISOString(),
        },
        ...overrides,
      })
      .returning(),
  );
}

export function makeUrlQueueItem(db: Db, overrides: Partial<typeof urlQueue.$inferInsert> = {}) {
  const url = overrides.url ?? `https://news.example/queued/${next()}`;
  const normalized = normalizeUrl(url);
  if (!normalized.ok) throw new Error(`makeUrlQueueItem: ${url} does not normalise`);
  return one(
    db
      .insert(urlQueue)
      .values({ url, normalizedUrl: normalized.normalized, urlHash: normalized.hash, lastmod: new Date(), ...overrides })
      .returning(),
  );
}

export async function makeSocialPost(db: Db, overrides: Partial<typeof socialMediaPosts.$inferInsert> = {}) {
  const storyId = overrides.storyId ?? (await makeStory(db)).id;
  return one(
    db
      .insert(socialMediaPosts)
      .values({ platform: "facebook", status: "pending", message: "Look at this", ...overrides, storyId })
      .returning(),
  );
}

export async function makeFeedLog(db: Db, overrides: Partial<typeof feedProcessingLog.$inferInsert> = {}) {
  const sourceId = overrides.sourceId ?? (await makeSource(db)).id;
  return one(
    db
      .insert(feedProcessingLog)
      .values({ httpStatus: 200, itemsFound: 10, itemsInserted: 2, durationMs: 120, ...overrides, sourceId })
      .returning(),
  );
}

export function makeScrapedCandidate(db: Db, overrides: Partial<typeof scrapedCandidates.$inferInsert> = {}) {
  const n = next();
  const url = overrides.url ?? `https://news.example/candidate/${n}`;
  return one(
    db
      .insert(scrapedCandidates)
      .values({ url, ...hashedUrl(url), title: `Candidate ${n}`, outcome: "inserted", ...overrides })
      .returning(),
  );
}

export function makeUser(db: Db, overrides: Partial<typeof users.$inferInsert> = {}) {
  const n = next();
  return one(
    db
      .insert(users)
      .values({ id: randomUUID(), name: `User ${n}`, email: `user${n}@oddwire.test`, ...overrides })
      .returning(),
  );
}

export async function makeSession(db: Db, overrides: Partial<typeof sessions.$inferInsert> = {}) {
  const userId = overrides.userId ?? (await makeUser(db)).id;
  return one(
    db
      .insert(sessions)
      .values({
        id: randomUUID(),
        token: randomUUID(),
        expiresAt: new Date(Date.now() + 86_400_000),
        ...overrides,
        userId,
      })
      .returning(),
  );
}

export function makeJob(db: Db, overrides: Partial<typeof jobs.$inferInsert> = {}) {
  return one(db.insert(jobs).values({ id: randomUUID(), kind: "ingest", ...overrides }).returning());
}

export function makeAuditEntry(db: Db, overrides: Partial<typeof auditLog.$inferInsert> = {}) {
  const n = next();
  return one(
    db
      .insert(auditLog)
      .values({ action: "story.publish", entityType: "story", entityId: String(n), ...overrides })
      .returning(),
  );
}
