import { data } from "react-router";
import { readUrlQueFilters } from "~/app/components/admin/url-que/filters";
import { URL_QUE_TEXT } from "~/app/components/admin/url-que/texts";
import { UrlQueScreen, type UrlQueAnswer } from "~/app/components/admin/url-que/url-que-screen";
import { failedAction } from "~/app/lib/action-toast";
import { requireAdmin } from "~/app/lib/admin.server";
import { errorAnswer } from "~/app/lib/error-response.server";
import { idListField } from "~/app/lib/form-fields";
import { DEFAULT_URL_QUEUE_STATUS, deleteQueuedUrls, listUrlQueue, rejectQueuedUrls, URL_QUEUE_LIMIT, URL_QUEUE_STATUSES } from "~/domain/crawl/url-queue";
import { DomainError } from "~/domain/errors";
import { adminMeta } from "~/app/lib/meta";
import type { Route } from "./+types/url-que";

export function meta(): Route.MetaDescriptors {
  return adminMeta("URL Que");
}

export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  const statuses = { options: URL_QUEUE_STATUSES, fallback: DEFAULT_URL_QUEUE_STATUS };
  const filters = readUrlQueFilters(new URL(args.request.url).searchParams, statuses);
  const [items, sources] = await Promise.all([
    listUrlQueue({ repos: args.context.repos }, { sourceId: filters.sourceId, status: filters.status, search: filters.q }),
    args.context.repos.sources.listNames(),
  ]);
  return { items, sources, filters, statuses, limit: URL_QUEUE_LIMIT };
}

const QueueIds = idListField("That list of URLs is not understood");

// Spec section 8's failure titles; the description is the error's own words, or for a failure that is
// not the editor's doing, the generic text.
const FAILURES: Record<string, { title: string; fallback: string }> = {
  scrape: { title: URL_QUE_TEXT.scrapeFailed, fallback: "The scrape could not be started. Please try again." },
  reject: { title: URL_QUE_TEXT.rejectFailed, fallback: "Failed to reject the URLs. Please try again." },
  delete: { title: URL_QUE_TEXT.deleteFailed, fallback: "Failed to delete the URLs. Please try again." },
};

/** The scrape job checks its ids only when it runs: the editor hears of an empty or oversized selection now. */
function scrapeSelection(ids: number[]): number[] {
  const unique = [...new Set(ids)];
  if (unique.length === 0) throw new DomainError("NO_SELECTION", URL_QUE_TEXT.noSelection.description);
  if (unique.length > URL_QUEUE_LIMIT) throw new DomainError("TOO_MANY_URLS", `At most ${URL_QUEUE_LIMIT} URLs at a time.`);
  return unique;
}

export async function action(args: Route.ActionArgs) {
  const me = await requireAdmin(args);
  const form = Object.fromEntries(await args.request.formData()) as Record<string, string>;
  const intent = form.intent ?? "";
  const deps = { repos: args.context.repos };
  try {
    switch (intent) {
      case "scrape": {
        const ids = scrapeSelection(QueueIds.parse(form.ids));
        // The durable job groups the URLs by source and scrapes them politely (domain/crawl/scrape-queue.ts).
        const { jobId } = await args.context.jobs.enqueue("scrape-queue", { ids }, { requestedBy: me.id });
        return { ok: true, jobId, requested: ids.length } satisfies UrlQueAnswer;
      }
      case "reject": {
        const rejected = await rejectQueuedUrls(deps, { ids: QueueIds.parse(form.ids), actorUserId: me.id });
        return { ok: true, toast: URL_QUE_TEXT.rejected(rejected) } satisfies UrlQueAnswer;
      }
      case "delete": {
        const deleted = await deleteQueuedUrls(deps, { ids: QueueIds.parse(form.ids), actorUserId: me.id });
        return { ok: true, toast: URL_QUE_TEXT.deleted(deleted) } satisfies UrlQueAnswer;
      }
      default:
        return data(failedAction({ message: "Unknown action" }, "Error"), { status: 400 });
    }
  } catch (error) {
    const failure = FAILURES[intent]!;
    const answer = errorAnswer(error, args.context.logger, failure.fallback, { intent });
    const title = answer.code === "NO_SELECTION" ? URL_QUE_TEXT.noSelection.title : failure.title;
    return data(failedAction(answer, title), { status: answer.status });
  }
}

export default function UrlQue({ loaderData }: Route.ComponentProps) {
  return <UrlQueScreen {...loaderData} />;
}
