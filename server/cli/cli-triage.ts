import { parseArgs } from "node:util";
import { createRepos } from "~/db/repos";
import { DEFAULT_YIELD_WINDOW, MAX_YIELD_DAYS, sourceYields } from "~/domain/triage/yield";
import { bulkPublishStories, bulkRejectStories } from "~/domain/stories/bulk-review";
import { triageListing } from "~/domain/triage/triage";
import type { TRIAGE_COMMANDS } from "./cli-commands";
import type { CliTools } from "./cli-tools";

/** Runs one triage command; returns its exit code. */
export async function runTriageCommand(command: (typeof TRIAGE_COMMANDS)[number], args: string[], tools: CliTools): Promise<number> {
  switch (command) {
    case "review": {
      const { values } = parseArgs({ args, options: { publish: { type: "string" }, reject: { type: "string" }, category: { type: "string" }, reason: { type: "string" } } });
      if ((values.publish === undefined) === (values.reject === undefined)) throw tools.usage("review takes --publish ID[,ID...] --category SLUG, or --reject ID[,ID...] [--reason TEXT]");
      const ids = idList(values.publish ?? values.reject ?? "", tools);
      if (values.publish !== undefined && !values.category?.trim()) throw tools.usage("--publish needs --category SLUG");
      return tools.withDatabase(async (database, config) => {
        const repos = createRepos(database.db);
        const deps = { editorial: repos.editorial, siteUrl: config.siteUrl };
        if (values.publish !== undefined) {
          const category = await repos.categories.findBySlug(values.category!.trim());
          if (!category) throw tools.usage(`no category has the slug "${values.category!.trim()}"`);
          // Each story goes into the category, then live: the same steps as the Stories screen.
          const outcome = await bulkPublishStories(deps, { actorUserId: null, storyIds: ids, categoryId: category.id });
          tools.out(JSON.stringify({ published: outcome.done, skipped: outcome.skipped }));
        } else {
          const outcome = await bulkRejectStories(deps, { actorUserId: null, storyIds: ids, reason: values.reason });
          tools.out(JSON.stringify({ rejected: outcome.done, skipped: outcome.skipped }));
        }
      });
    }
    case "triage": {
      const { values } = parseArgs({ args, options: { limit: { type: "string" }, source: { type: "string" } } });
      const limit = values.limit === undefined ? 50 : Number(values.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw tools.usage("--limit must be a whole number from 1 to 10000");
      const sourceId = values.source === undefined ? null : Number(values.source);
      if (sourceId !== null && (!Number.isInteger(sourceId) || sourceId < 1)) throw tools.usage("--source must be a source ID");
      return tools.withDatabase(async (database) => {
        const repos = createRepos(database.db);
        if (sourceId !== null && !(await repos.sources.findById(sourceId))) throw tools.usage(`no source has the ID ${sourceId}`);
        tools.out(JSON.stringify(await triageListing({ models: repos.triage }, { limit, sourceId })));
      });
    }
    case "source:stats": {
      const { values } = parseArgs({ args, options: { days: { type: "string" } } });
      const days = values.days === undefined ? DEFAULT_YIELD_WINDOW : Number(values.days);
      if (!Number.isInteger(days) || days < 1 || days > MAX_YIELD_DAYS) throw tools.usage(`--days must be a whole number from 1 to ${MAX_YIELD_DAYS}`);
      return tools.withDatabase(async (database) => {
        const report = await sourceYields({ triage: createRepos(database.db).triage }, { days });
        tools.out(JSON.stringify(report));
      });
    }
  }
}

/** "3,5,8" as story IDs; anything else is a usage error. */
function idList(text: string, tools: CliTools): number[] {
  const ids = text.split(",").map((part) => part.trim()).filter(Boolean).map(Number);
  if (ids.length === 0 || ids.some((id) => !Number.isInteger(id) || id < 1)) throw tools.usage(`not a list of story IDs: "${text}"`);
  return ids;
}
