import { parseArgs } from "node:util";
import type { Database } from "~/db/client";
import { createRepos } from "~/db/repos";
import type { SocialPostRow } from "~/db/repos/social.repo";
import { attemptPost, NOT_CONNECTED, requestPost, type SchedulePost } from "~/domain/social/post-story";
import { createJobRunner, type JobRunner } from "~/jobs/runner";
import { schedulePostWith } from "~/domain/social/post-story";
import type { FACEBOOK_COMMANDS } from "./cli-commands";
import type { CliTools } from "./cli-tools";
import { configSecrets, loadConfig } from "../config";
import { createFacebookGraph } from "../facebook";
import { createLogger, type Logger } from "../logger";



/** Runs one Facebook command; returns its exit code. */
export async function runFacebookCommand(command: (typeof FACEBOOK_COMMANDS)[number], args: string[], tools: CliTools): Promise<number> {
  if (command === "facebook:check") {
    parseArgs({ args, options: {} });
    return checkConnection(tools);
  }
  const { values } = parseArgs({
    args,
    options: { story: { type: "string" }, message: { type: "string" }, at: { type: "string" }, repost: { type: "boolean" } },
  });
  const storyId = Number(values.story);
  if (values.story === undefined || !Number.isInteger(storyId) || storyId < 1) throw tools.usage("facebook:post needs --story ID (a positive whole number)");
  if (values.message !== undefined && values.message.trim() === "") throw tools.usage("--message is empty: leave it out to post the composed message");
  let at: Date | null = null;
  if (values.at !== undefined) {
    at = new Date(values.at);
    if (Number.isNaN(at.getTime())) throw tools.usage(`--at must be a date and time, like ${new Date(Date.now() + 3_600_000).toISOString()}`);
  }
  let failed = false;
  const code = await tools.withDatabase(async (database, config) => {
    const logger = createLogger({ level: config.logLevel, fd: 2, secrets: configSecrets(config) });
    const graph = createFacebookGraph(config, logger);
    const jobs = lazyJobQueue(database, logger);
    try {
      const repos = createRepos(database.db);
      // Without --at the attempt is made here, so nothing but a retry needs the job queue.
      const requested = await requestPost(
        { repos, siteUrl: config.siteUrl, connected: graph !== null, schedule: at ? jobs.schedule : null },
        { storyId, message: values.message ?? null, at, repost: values.repost === true, actorUserId: null },
      );
      const row = at ? requested : ((await attemptPost({ repos, graph, schedule: jobs.schedule, logger }, requested.id)).row ?? requested);
      failed = row.status === "failed";
      tools.out(JSON.stringify(postJson(row)));
    } finally {
      await jobs.stop();
      await graph?.close();
    }
  });
  return code === 0 && failed ? 1 : code;
}

// The health as checkConnection reports it; the token itself is never part of it.
async function checkConnection(tools: CliTools): Promise<number> {
  const config = loadConfig();
  const graph = createFacebookGraph(config, createLogger({ level: config.logLevel, fd: 2, secrets: configSecrets(config) }));
  if (!graph) {
    tools.out(JSON.stringify({ connected: false, how: NOT_CONNECTED }));
    return 1;
  }
  try {
    const health = await graph.checkConnection();
    tools.out(JSON.stringify({ connected: true, ...health }));
    return health.page !== null && health.tokenValid === true && health.error === null ? 0 : 1;
  } finally {
    await graph.close();
  }
}

/** The job queue, started only when a job is queued (a scheduled post, or a retry after a passing failure). */
function lazyJobQueue(database: Database, logger: Logger): { schedule: SchedulePost; stop: () => Promise<void> } {
  let runner: JobRunner | undefined;
  const enqueue = schedulePostWith(() => runner as JobRunner);
  return {
    schedule: async (postRowId, at) => {
      if (!runner) {
        runner = await createJobRunner({ database, logger, pollSchedule: null });
        await runner.start();
      }
      return enqueue(postRowId, at);
    },
    stop: async () => runner?.stop(),
  };
}

function postJson(row: SocialPostRow) {
  return {
    id: row.id,
    story_id: row.storyId,
    status: row.status,
    message: row.message,
    link: row.link,
    post_id: row.postId,
    permalink_url: row.permalinkUrl,
    posted_at: row.postedAt,
    error_message: row.errorMessage,
    error_code: row.errorCode,
    error_subcode: row.errorSubcode,
    fbtrace_id: row.fbtraceId,
    scheduled_for: row.scheduledFor,
    next_attempt_at: row.nextAttemptAt,
    attempts: row.attempts,
    job_id: row.jobId,
    created_at: row.createdAt,
  };
}
