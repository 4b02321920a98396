import { parseArgs } from "node:util";
import { createRepos } from "~/db/repos";
import { DEFAULT_YIELD_WINDOW, MAX_YIELD_DAYS, sourceYields } from "~/domain/triage/yield";
import type { TRIAGE_COMMANDS } from "./cli-commands";
import type { CliTools } from "./cli-tools";

/** Runs one triage command; returns its exit code. */
export async function runTriageCommand(command: (typeof TRIAGE_COMMANDS)[number], args: string[], tools: CliTools): Promise<number> {
  switch (command) {
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
