import type { CategorisedRow, DecisionRow, PendingForTriage, TriageRepo } from "~/db/repos/triage.repo";
import { dateOf, systemClock, type Clock } from "~/lib/clock";
import { errorMessage } from "~/lib/error-message";
import type { OnProgress } from "~/lib/progress";
import { MIN_STORIES_PER_CATEGORY, suggestCategory, trainCategorizer, type CategorizerModel } from "./categorizer";
import { canTrainRanker, MIN_DECISIONS, scoreStory, trainRanker, type RankerModel, type ScoreReason } from "./ranker";
import { hostOf, type TriageText } from "./text-features";
import type { JobStarter } from "~/domain/jobs/kinds";

// The triage of the Pending list: models learned from the desk's decisions (ranker.ts, categorizer.ts),
// kept in the database, retrained as a job once decisions have accumulated, and every pending story
// scored with the models in use.

/** The newest decisions of each kind a model learns from: enough to learn the desk's taste, bounded in time and memory. */
export const MAX_DECISIONS = 10_000;
/**
 * The newest published stories the category model learns from. Its training is the slower of the two
 * (about 2 s of CPU per 1,000 stories in 30 categories, docs/benchmarks.md) and holds the worker's
 * event loop while it runs: bounded well inside a running job's 20 s lease.
 */
export const MAX_CATEGORISED = 3_000;
/** Decisions made since the model in use after which it is trained again. */
export const RETRAIN_AFTER_DECISIONS = 25;
/** Pending stories scored per read and per write. */
const SCORE_PAGE = 1_000;

export type TriageDeps = {
  models: TriageRepo;
  now?: Clock;
  /** What went wrong with one model while the other was trained (the last good model stays). */
  onModelFailure?: (kind: "ranking" | "category", error: unknown) => void;
};

const asText = (row: { title: string; summary: string | null; sourceId: number | null; url: string | null }): TriageText => ({
  title: row.title,
  summary: row.summary,
  sourceId: row.sourceId,
  linkHost: hostOf(row.url),
});

/** What the Pending list says about its order: whether the learned order is in use, and why not. */
export type TriageStatus = {
  /** Decisions so far: published stories and the desk's own rejections. */
  decisions: { published: number; rejected: number };
  needed: { published: number; rejected: number };
  /** The ranking model in use, or null before there are enough decisions. */
  model: { trainedAt: string; published: number; rejected: number } | null;
};

export async function triageStatus(deps: Pick<TriageDeps, "models">): Promise<TriageStatus> {
  const [decisions, model] = await Promise.all([deps.models.decisionCounts(), deps.models.latestInfo("ranking")]);
  return {
    decisions,
    needed: { ...MIN_DECISIONS },
    model: model ? { trainedAt: model.trainedAt.toISOString(), published: model.published, rejected: model.rejected } : null,
  };
}

/**
 * Whether the models should be trained again: the ranking when there is none yet and enough decisions
 * exist, or when enough decisions were made since it was trained; the category model, which learns from
 * published stories alone, when there is none yet and the desk has published as many as the ranking
 * needs, or when enough were published since. Counted by time, not by totals: a model learns from the
 * newest MAX_DECISIONS only, so a desk past that many would otherwise look due on every pass.
 */
export async function retrainDue(deps: Pick<TriageDeps, "models">): Promise<boolean> {
  const [ranking, category] = await Promise.all([deps.models.latestInfo("ranking"), deps.models.latestInfo("category")]);
  if (ranking) {
    const since = await deps.models.decisionsSince(ranking.trainedAt);
    if (since.published + since.rejected >= RETRAIN_AFTER_DECISIONS) return true;
  }
  if (category) {
    const since = await deps.models.decisionsSince(category.trainedAt);
    if (since.published >= RETRAIN_AFTER_DECISIONS) return true;
  }
  if (ranking && category) return false;
  // A model missing: the desk's totals say whether there is enough to train it.
  const decisions = await deps.models.decisionCounts();
  return (!ranking && canTrainRanker(decisions)) || (!category && decisions.published >= MIN_DECISIONS.published);
}

export type RetrainResult = {
  ranking: { trained: boolean; published: number; rejected: number; error?: string };
  category: { trained: boolean; stories: number; categories: number; error?: string };
};

/**
 * Trains both models on the newest decisions and keeps them. A model that cannot be trained (too
 * few decisions, a category with too few stories) or fails keeps the last good one in use.
 */
export async function retrainTriage(deps: TriageDeps): Promise<RetrainResult> {
  const at = dateOf(deps.now ?? systemClock);
  const result: RetrainResult = { ranking: { trained: false, published: 0, rejected: 0 }, category: { trained: false, stories: 0, categories: 0 } };

  const decisions: DecisionRow[] = await deps.models.decisions(MAX_DECISIONS);
  const published = decisions.filter((d) => d.published).length;
  result.ranking.published = published;
  result.ranking.rejected = decisions.length - published;
  if (canTrainRanker(result.ranking)) {
    try {
      const model = trainRanker(decisions.map((d) => ({ ...asText(d), title: d.title, published: d.published })));
      await deps.models.save("ranking", { published, rejected: decisions.length - published, model, at });
      result.ranking.trained = true;
    } catch (error) {
      result.ranking.error = errorMessage(error);
      deps.onModelFailure?.("ranking", error);
    }
  }

  const categorised: CategorisedRow[] = await deps.models.categorised(MAX_CATEGORISED);
  result.category.stories = categorised.length;
  const perCategory = new Map<string, number>();
  for (const row of categorised) perCategory.set(row.categorySlug, (perCategory.get(row.categorySlug) ?? 0) + 1);
  result.category.categories = [...perCategory.values()].filter((n) => n >= MIN_STORIES_PER_CATEGORY).length;
  if (result.category.categories > 0) {
    try {
      const model = trainCategorizer(categorised.map((row) => ({ ...asText(row), title: row.title, categorySlug: row.categorySlug })));
      await deps.models.save("category", { published: categorised.length, rejected: 0, model, at });
      result.category.trained = true;
    } catch (error) {
      result.category.error = errorMessage(error);
      deps.onModelFailure?.("category", error);
    }
  } else if (published > 0 && !(await deps.models.latestInfo("category"))) {
    // Published stories, but no category with enough of them (or none left with a category): a model
    // that suggests nothing is kept, so that the next attempt waits for more published stories
    // instead of coming round on every pass.
    try {
      await deps.models.save("category", { published: categorised.length, rejected: 0, model: trainCategorizer([]), at });
    } catch (error) {
      result.category.error = errorMessage(error);
      deps.onModelFailure?.("category", error);
    }
  }
  return result;
}

/** The models in use, read once per run or per page. */
export type TriageModels = { ranking: RankerModel | null; category: CategorizerModel | null };

async function loadModels(deps: Pick<TriageDeps, "models">): Promise<TriageModels> {
  const [ranking, category] = await Promise.all([deps.models.latest("ranking"), deps.models.latest("category")]);
  return { ranking: (ranking?.model as RankerModel | undefined) ?? null, category: (category?.model as CategorizerModel | undefined) ?? null };
}

/** A pending story's score and suggested category by the models in use (nulls without them). */
function triageOne(models: TriageModels, story: PendingForTriage, categoryIds: Map<string, { id: number }>) {
  const text = asText(story);
  const score = models.ranking ? scoreStory(models.ranking, text, { reasons: 0 }).score : null;
  const suggestion = models.category ? suggestCategory(models.category, text) : null;
  const category = suggestion ? categoryIds.get(suggestion.slug) : undefined;
  return { id: story.id, score, categoryId: category?.id ?? null, confidence: category ? suggestion!.confidence : null };
}

/**
 * Scores pending stories with the models in use: every one (after a retrain), or those not scored
 * yet (stories that came in since). Answers how many were scored.
 */
export async function scorePending(
  deps: TriageDeps,
  input: { all: boolean; onProgress?: OnProgress; signal?: AbortSignal },
): Promise<{ scored: number }> {
  const models = await loadModels(deps);
  if (!models.ranking && !models.category) return { scored: 0 };
  const [categoryIds, total] = await Promise.all([deps.models.categoryIdsBySlug(), deps.models.pendingCount({ all: input.all })]);
  let scored = 0;
  for (let afterId = 0; ; ) {
    input.signal?.throwIfAborted();
    const page = await deps.models.pendingPage({ afterId, limit: SCORE_PAGE, all: input.all });
    if (page.length === 0) break;
    await deps.models.writeScores(page.map((story) => triageOne(models, story, categoryIds)));
    scored += page.length;
    afterId = page[page.length - 1]!.id;
    await input.onProgress?.({ done: scored, total: Math.max(total, scored), message: `Scored ${scored.toLocaleString("en-US")} pending stories` });
  }
  return { scored };
}


export type TriageRunResult = { retrained: boolean; ranking: boolean; category: boolean; scored: number; regrouped: boolean; groups: number; grouped: number };

/**
 * One triage pass: the models trained again when asked or when enough decisions came in since (a
 * failed training keeps the last good model), pending stories scored (all of them after a new model,
 * else those not scored yet), and the inbox's same-story groups made again (unless `regroup` is false).
 */
export async function runTriage(
  deps: TriageDeps & { regroup: () => Promise<{ groups: number; grouped: number }> },
  input: { retrain: boolean; regroup?: boolean; onProgress?: OnProgress; signal?: AbortSignal },
): Promise<TriageRunResult> {
  const retrain = input.retrain || (await retrainDue(deps));
  const trained = retrain ? await retrainTriage(deps) : null;
  const fresh = trained !== null && (trained.ranking.trained || trained.category.trained);
  input.signal?.throwIfAborted();
  const { scored } = await scorePending(deps, { all: fresh, onProgress: input.onProgress, signal: input.signal });
  const done = { retrained: fresh, ranking: trained?.ranking.trained ?? false, category: trained?.category.trained ?? false, scored };
  if (input.regroup === false) return { ...done, regrouped: false, groups: 0, grouped: 0 };
  input.signal?.throwIfAborted();
  const { groups, grouped } = await deps.regroup();
  return { ...done, regrouped: true, groups, grouped };
}

/** 'Retrain now': queues a triage pass that trains the models again, unless one is already on its way (its id then). */
export async function startTriage(deps: { jobs: JobStarter }, input: { actorUserId: string | null }): Promise<{ jobId: string }> {
  const running = await deps.jobs.latestUnfinished("triage");
  if (running) return { jobId: running.id };
  return deps.jobs.enqueue("triage", { retrain: true }, { requestedBy: input.actorUserId });
}

/** The ranking in use, read again only when a newer one was trained (one model is kept per process). */
let cachedRanking: { id: number; model: RankerModel } | null = null;

/**
 * Why a pending story scored as it did: its score by the ranking in use and the features that raised
 * or lowered it most, with a source told by its name. Null when the story is not pending or no ranking exists.
 */
export async function explainScore(
  deps: { models: TriageRepo; story: (id: number) => Promise<(PendingForTriage & { status: string; sourceName: string | null }) | null> },
  storyId: number,
): Promise<{ score: number; reasons: ScoreReason[]; trainedAt: string } | null> {
  const [info, story] = await Promise.all([deps.models.latestInfo("ranking"), deps.story(storyId)]);
  if (!info || !story || story.status !== "pending") return null;
  if (cachedRanking?.id !== info.id) {
    const row = await deps.models.latest("ranking");
    if (!row) return null;
    cachedRanking = { id: row.id, model: row.model as RankerModel };
  }
  const { score, reasons } = scoreStory(cachedRanking.model, asText(story), { reasons: 8 });
  const sourceFeature = story.sourceId !== null ? `source: ${story.sourceId}` : null;
  return {
    score,
    trainedAt: info.trainedAt.toISOString(),
    reasons: reasons.map((r) => (r.feature === sourceFeature && story.sourceName ? { ...r, feature: `source: ${story.sourceName}` } : r)),
  };
}

/** What the triage command prints: the Pending list most likely first, and the ranking it was scored by. */
export type TriageListing = {
  stories: {
    id: number;
    title: string;
    score: number | null;
    suggestedCategory: { slug: string; name: string; confidence: number } | null;
    sameStory: { groupId: number; size: number } | null;
  }[];
  model: { trainedAt: string; published: number; rejected: number } | null;
};

/** The Pending list most likely first (newest first, without scores, before there is a ranking). */
export async function triageListing(deps: Pick<TriageDeps, "models">, input: { limit: number; sourceId?: number | null }): Promise<TriageListing> {
  const info = await deps.models.latestInfo("ranking");
  const rows = await deps.models.pendingTriage({ limit: input.limit, sourceId: input.sourceId ?? null, byScore: info !== null });
  return {
    stories: rows.map((row) => ({
      id: row.id,
      title: row.title,
      score: info ? row.score : null,
      suggestedCategory: row.categorySlug && row.categoryName && row.confidence !== null ? { slug: row.categorySlug, name: row.categoryName, confidence: row.confidence } : null,
      sameStory: row.groupId !== null && (row.groupSize ?? 0) > 1 ? { groupId: row.groupId, size: row.groupSize ?? 0 } : null,
    })),
    model: info ? { trainedAt: info.trainedAt.toISOString(), published: info.published, rejected: info.rejected } : null,
  };
}
