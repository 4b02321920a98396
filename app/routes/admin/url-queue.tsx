import { z } from "zod";
import { urlQueueList } from "~/app/components/admin/url-queue/filters";
import { URL_QUEUE_TEXT } from "~/app/components/admin/url-queue/texts";
import { UrlQueueScreen, type UrlQueueAnswer } from "~/app/components/admin/url-queue/url-queue-screen";
import { adminAction, intent, type Failure } from "~/app/lib/admin-action.server";
import { requireAdmin } from "~/app/lib/admin.server";
import { idListField } from "~/app/lib/form-fields";
import { DEFAULT_URL_QUEUE_STATUS, deleteQueuedUrls, listUrlQueue, rejectQueuedUrls, startScrape, URL_QUEUE_LIMIT, URL_QUEUE_STATUSES } from "~/domain/crawl/url-queue";
import { adminMeta } from "~/app/lib/meta";
import type { Route } from "./+types/url-queue";

export function meta(): Route.MetaDescriptors {
  return adminMeta("URL Que");
}

export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  const statuses = { options: URL_QUEUE_STATUSES, fallback: DEFAULT_URL_QUEUE_STATUS };
  const filters = urlQueueList(statuses).read(new URL(args.request.url).searchParams);
  const [items, sources] = await Promise.all([
    listUrlQueue({ repos: args.context.repos }, { sourceId: filters.sourceId, status: filters.status, search: filters.q }),
    args.context.repos.sources.listNames(),
  ]);
  return { items, sources, filters, statuses, limit: URL_QUEUE_LIMIT };
}

const Selection = z.object({ ids: idListField("That list of URLs is not understood") });

// Spec section 8's failure titles; the description is the error's own words, or for a failure that is
// not the editor's doing, the generic text. An empty selection is titled as the screen titles it.
const failure = (title: string, fallback: string): Failure => ({
  title: (answer) => (answer.code === "NO_SELECTION" ? URL_QUEUE_TEXT.noSelection.title : title),
  fallback,
});

export async function action(args: Route.ActionArgs) {
  const deps = { repos: args.context.repos };
  return adminAction(
    args,
    {
      scrape: intent({
        schema: Selection,
        failure: failure(URL_QUEUE_TEXT.scrapeFailed, "The scrape could not be started. Please try again."),
        run: async ({ ids }, { me, context }) => ({ ok: true, ...(await startScrape({ jobs: context.jobs }, { ids, actorUserId: me.id })) }) satisfies UrlQueueAnswer,
      }),
      reject: intent({
        schema: Selection,
        failure: failure(URL_QUEUE_TEXT.rejectFailed, "Failed to reject the URLs. Please try again."),
        run: async ({ ids }, { me }) => ({ ok: true, toast: URL_QUEUE_TEXT.rejected(await rejectQueuedUrls(deps, { ids, actorUserId: me.id })) }) satisfies UrlQueueAnswer,
      }),
      delete: intent({
        schema: Selection,
        failure: failure(URL_QUEUE_TEXT.deleteFailed, "Failed to delete the URLs. Please try again."),
        run: async ({ ids }, { me }) => ({ ok: true, toast: URL_QUEUE_TEXT.deleted(await deleteQueuedUrls(deps, { ids, actorUserId: me.id })) }) satisfies UrlQueueAnswer,
      }),
    },
    failure("Error", "Something went wrong. Please try again."),
  );
}

export default function UrlQueue({ loaderData }: Route.ComponentProps) {
  return <UrlQueueScreen {...loaderData} />;
}
