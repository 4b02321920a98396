import { useCallback, useState } from "react";
import { useFetcher, useSearchParams, type ShouldRevalidateFunctionArgs } from "react-router";
import { IngestionTrigger } from "~/app/components/admin/sources/ingestion-trigger";
import { ManualScrapeTab } from "~/app/components/admin/sources/manual-scrape-tab";
import { RssValidatorTab } from "~/app/components/admin/sources/rss-validator-tab";
import { DELETE_FETCHER } from "~/app/components/admin/sources/source-card";
import { DISCOVERY_FAILED, type DiscoverAnswer } from "~/app/components/admin/sources/discovery-messages";
import { SourceDialog } from "~/app/components/admin/sources/source-dialog";
import { SOURCE_LIST } from "~/app/components/admin/sources/source-list-query";
import { Tabs, TABS, type TabId } from "~/app/components/admin/sources/source-tabs";
import { SourcesPanel } from "~/app/components/admin/sources/sources-panel";
import { primaryButtonClass } from "~/app/components/admin/sources/ui";
import { WatchlistTab } from "~/app/components/admin/sources/watchlist-tab";
import { z } from "zod";
import { useActionToast, type ActionResult } from "~/app/lib/action-toast";
import { adminAction, intent, type Failure } from "~/app/lib/admin-action.server";
import { requireAdmin } from "~/app/lib/admin.server";
import { idField } from "~/app/lib/form-fields";
import { plural } from "~/app/lib/format";
import { validateFeed } from "~/domain/ingestion/validate-feed";
import { importSourcesOpml, OPML_MAX_BYTES } from "~/domain/sources/opml";
import { SOURCE_MESSAGES, sourceFormSchema } from "~/domain/sources/source-form";
import { createSource, deleteSource, listSources, startDiscovery, startIngestion, updateSource, type SourceView } from "~/domain/sources/sources";
import { INGESTION_FAILED, IngestForm, type IngestAnswer } from "~/app/components/admin/sources/ingestion-messages";
import { orderByYield, sourceYields } from "~/domain/triage/yield";
import { PageHeader } from "~/app/components/admin/page-header";
import { adminMeta } from "~/app/lib/meta";
import type { Route } from "./+types/sources";

export function meta(): Route.MetaDescriptors {
  return adminMeta("Sources");
}

export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  const query = SOURCE_LIST.read(new URL(args.request.url).searchParams);
  const [listed, yields, sourceNames, categories] = await Promise.all([
    listSources({ sources: args.context.repos.sources, crawl: args.context.repos.crawl }, { search: query.q, troubled: query.troubled }),
    sourceYields({ triage: args.context.repos.triage }, { days: Number(query.window) }),
    args.context.repos.sources.listNames(),
    args.context.repos.categories.listAll(),
  ]);
  const sources = orderByYield(listed, yields.sources, query.sort);
  return { sources, yields: yields.sources, sourceNames, categories: categories.map((c) => ({ id: c.id, name: c.name })), query };
}

/** Switching tabs changes only ?tab=: the list is already here, so it is not loaded again. */
export function shouldRevalidate({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formMethod || currentUrl.href === nextUrl.href) return defaultShouldRevalidate;
  const withoutTab = (url: URL) => {
    const params = new URLSearchParams(url.searchParams);
    params.delete("tab");
    params.sort();
    return `${url.pathname}?${params}`;
  };
  return withoutTab(currentUrl) === withoutTab(nextUrl) ? false : defaultShouldRevalidate;
}

const SourceId = idField("That source is not known");
const OneSource = z.object({ sourceId: SourceId });
const SaveForm = sourceFormSchema.extend({ saveAnyway: z.preprocess((value) => value === "1", z.boolean()) });
const OPML_FAILED = "OPML import failed";
const OpmlFile = z.object({
  file: z
    .custom<File>((value) => value instanceof File && value.size > 0, "Choose an .opml file first.")
    .refine((file) => file.size <= OPML_MAX_BYTES, `The file is larger than ${OPML_MAX_BYTES / 1024 / 1024} MiB.`),
});

// Spec section 8: a failed delete reads 'Error: message'; a refused form points at its fields, and a
// feed that could not be read is a warning the dialog offers to override.
const failure = (title: string, description?: Failure["description"]): Failure => ({
  title,
  fallback: "Something went wrong. Please try again.",
  description: description ?? ((answer) => (answer.code === "INVALID_SOURCE" ? SOURCE_MESSAGES.fixFields : answer.message)),
  more: (answer) => (answer.code === "NOT_A_FEED" ? { feedWarning: answer.message } : {}),
});

export async function action(args: Route.ActionArgs) {
  // Saving an RSS source reads its feed first, as the RSS Validator does; the editor may save anyway.
  const checkFeed = (url: string) => validateFeed({ http: args.context.http, parseFeed: args.context.parseFeed }, url);
  const deps = { sources: args.context.repos.sources, checkFeed, categories: args.context.repos.categories };
  return adminAction(
    args,
    {
      create: intent({
        schema: SaveForm,
        changesSite: true,
        failure: failure(SOURCE_MESSAGES.createFailed),
        run: async ({ saveAnyway, ...form }, { me }) => {
          await createSource(deps, { actorUserId: me.id, form, saveAnyway });
          return { ok: true, toast: SOURCE_MESSAGES.created } satisfies ActionResult;
        },
      }),
      update: intent({
        schema: SaveForm.extend({ sourceId: SourceId }),
        changesSite: true,
        failure: failure(SOURCE_MESSAGES.updateFailed),
        run: async ({ saveAnyway, sourceId, ...form }, { me }) => {
          await updateSource(deps, { actorUserId: me.id, sourceId, form, saveAnyway });
          return { ok: true, toast: SOURCE_MESSAGES.updated } satisfies ActionResult;
        },
      }),
      delete: intent({
        schema: OneSource,
        changesSite: true,
        failure: failure(SOURCE_MESSAGES.deleteFailed, (answer) => `Error: ${answer.message}`),
        run: async ({ sourceId }, { me }) => {
          await deleteSource(deps, { actorUserId: me.id, sourceId });
          return { ok: true, toast: SOURCE_MESSAGES.deleted } satisfies ActionResult;
        },
      }),
      ingest: intent({
        schema: IngestForm,
        failure: failure(INGESTION_FAILED.title, () => INGESTION_FAILED.description),
        run: async ({ useCanonical }, { me, context }) => {
          const { jobId } = await startIngestion({ jobs: context.jobs }, { actorUserId: me.id, useCanonical });
          return { ok: true, jobId } satisfies IngestAnswer;
        },
      }),
      discover: intent({
        schema: OneSource,
        failure: failure(DISCOVERY_FAILED),
        run: async ({ sourceId }, { me, context }) => {
          const { jobId } = await startDiscovery({ sources: deps.sources, jobs: context.jobs }, { actorUserId: me.id, sourceId });
          return { ok: true, jobId } satisfies DiscoverAnswer;
        },
      }),
      import: intent({
        schema: OpmlFile,
        changesSite: true,
        run: async ({ file }, { me }) => {
          const result = await importSourcesOpml(deps, { actorUserId: me.id, xml: await file.text() });
          const notes = [...result.skipped, ...result.invalid].map((s) => `${s.name}: ${s.reason}`);
          return {
            ok: true,
            toast: {
              title: `Imported ${plural(result.imported.length, "source", "sources")}, skipped ${result.skipped.length + result.invalid.length}`,
              description: notes.length ? notes.slice(0, 5).join("; ") + (notes.length > 5 ? `; and ${notes.length - 5} more` : "") : undefined,
            },
          } satisfies ActionResult;
        },
      }),
    },
    failure(OPML_FAILED),
  );
}

export default function Sources({ loaderData }: Route.ComponentProps) {
  const { sources, yields, sourceNames, categories, query } = loaderData;
  const [search, setSearch] = useSearchParams();
  const [dialog, setDialog] = useState<{ source: SourceView | null } | null>(null);
  const closeDialog = useCallback(() => setDialog(null), []);
  // Each card's Delete shares this fetcher: its toast is shown here, since the card is gone on success.
  useActionToast(useFetcher<ActionResult>({ key: DELETE_FETCHER }).data);
  const requested = search.get("tab");
  const tab: TabId = TABS.some((t) => t.id === requested) ? (requested as TabId) : "sources";
  const selectTab = (next: TabId) =>
    setSearch(
      (prev) => {
        if (next === "sources") prev.delete("tab");
        else prev.set("tab", next);
        return prev;
      },
      { replace: true, preventScrollReset: true },
    );
  // The dialog edits the card as it was when opened; it closes if the source disappears meanwhile.
  const editing = dialog?.source ? (sources.find((s) => s.id === dialog.source!.id) ?? null) : null;
  const open = dialog !== null && (dialog.source === null || editing !== null);

  return (
    <>
      <PageHeader
        title="Sources"
        description="Manage RSS feeds and content sources"
        actions={
          <>
            <IngestionTrigger />
            <button type="button" onClick={() => setDialog({ source: null })} className={primaryButtonClass}>
              Add New Source
            </button>
          </>
        }
      />
      <Tabs active={tab} onSelect={selectTab} />
      {TABS.map((t) => (
        <div key={t.id} role="tabpanel" id={`panel-${t.id}`} aria-labelledby={`tab-${t.id}`} hidden={t.id !== tab} tabIndex={0} className="pt-6">
          {t.id === "sources" ? <SourcesPanel sources={sources} yields={yields} categories={categories} query={query} onEdit={(source) => setDialog({ source })} /> : null}
          {t.id === "rss-validator" ? <RssValidatorTab /> : null}
          {t.id === "manual-scrape" ? <ManualScrapeTab sources={sourceNames} /> : null}
          {t.id === "watchlist" ? <WatchlistTab /> : null}
        </div>
      ))}
      {open ? <SourceDialog key={dialog.source?.id ?? "new"} source={editing} categories={categories} onClose={closeDialog} /> : null}
    </>
  );
}
