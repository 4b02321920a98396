import { parseArgs } from "node:util";
import { createRepos } from "~/db/repos";
import { enhanceStoryImages } from "~/domain/images/enhance";
import { probeImage } from "~/integrations/images/probe";
import type { IMAGE_COMMANDS } from "./cli-commands";
import type { CliTools } from "./cli-tools";
import { configSecrets } from "../config";
import { createLogger } from "../logger";
import { createPoliteness } from "../politeness";




/** Runs one image command; returns its exit code. */
export async function runImageCommand(command: (typeof IMAGE_COMMANDS)[number], args: string[], tools: CliTools): Promise<number> {
  if (command === "probe-image") {
    const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
    if (positionals.length !== 1) throw tools.usage("probe-image needs one URL");
    const image = await tools.withHttp((http) => probeImage(http, positionals[0] as string));
    tools.out(JSON.stringify({ url: image.url, width: image.width, height: image.height, type: image.type, bytes: image.bytes }));
    return 0;
  }
  const { values } = parseArgs({ args, options: { limit: { type: "string" }, story: { type: "string" }, image: { type: "string" } } });
  const whole = (value: string | undefined, name: string) => {
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw tools.usage(`${name} must be a positive whole number`);
    return n;
  };
  const storyId = whole(values.story, "--story");
  const limit = whole(values.limit, "--limit") ?? 20;
  if (values.image !== undefined && storyId === undefined) throw tools.usage("--image needs --story");
  return tools.withDatabase((database, config) =>
    tools.withHttp(async (guarded) => {
      const logger = createLogger({ level: config.logLevel, fd: 2, secrets: configSecrets(config) });
      const repos = createRepos(database.db);
      const result = await enhanceStoryImages(
        { repos, http: createPoliteness({ http: guarded, repos, logger, siteUrl: config.siteUrl }), logger },
        storyId !== undefined ? { singleStoryId: storyId, customImageUrl: values.image ?? null } : { batchSize: limit },
        { onProgress: ({ done, total, counts }) => tools.err(JSON.stringify({ progress: { done, total, ...counts } })) },
      );
      tools.out(JSON.stringify(result));
    }),
  );
}
