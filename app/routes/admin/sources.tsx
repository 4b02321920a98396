import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from "react";
import { data, Form, useFetcher, useNavigation, useSearchParams, type ShouldRevalidateFunctionArgs } from "react-router";
import { z } from "zod";
import { IngestionTrigger } from "~/app/components/admin/sources/ingestion-trigger";
import { ManualScrapeTab } from "~/app/components/admin/sources/manual-scrape-tab";
import { RssValidatorTab } from "~/app/components/admin/sources/rss-validator-tab";
import { WatchlistTab } from "~/app/components/admin/sources/watchlist-tab";
import { inputClass, linkClass, primaryButtonClass, safeHref, secondaryButtonClass } from "~/app/components/admin/sources/ui";
import { CloseIcon, ExternalIcon, SearchIcon } from "~/app/components/icons";
import { useActionToast, type ActionToast } from "~/app/lib/action-toast";
import { requireAdmin } from "~/app/lib/admin.server";
import { formatDate, formatTime } from "~/app/lib/format";
import { DomainError } from "~/domain/errors";
import { importSourcesOpml, OPML_MAX_BYTES } from "~/domain/sources/opml";
import {
  addKeyword,
  HEALTH_WINDOW_DAYS,
  INVALID_JSON_ALERT,
  parseScrapingConfig,
  POLL_INTERVAL,
  SCRAPING_CONFIG_PLACEHOLDER,
  SOURCE_MESSAGES,
  SOURCE_TYPE_LABELS,
  SOURCE_TYPES,
  sourceFormFromData,
  validateSourceForm,
  type SourceFieldErrors,
  type SourceFormField,
  type SourceType,
} from "~/domain/sources/source-form";
import { createSource, deleteSource, InvalidSourceError, listSources, updateSource, type SourceView } from "~/domain/sources/sources";
import type { Route } from "./+types/sources";

export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  const q = new URL(args.request.url).searchParams.get("q")?.trim() ?? "";
  const [sources, sourceNames] = await Promise.all([listSources({ sources: args.context.repos.sources }, { search: q }), args.context.repos.sources.listNames()]);
  return { sources, sourceNames, q };
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

type Toast = ActionToast;
type ActionResult = { ok: boolean; toast: Toast; fieldErrors?: SourceFieldErrors };

const SourceId = z.coerce.number().int().positive();

function plural(n: number, one: string, many: string) {
  return `${n} ${n === 1 ? one : many}`;
}

export async function action(args: Route.ActionArgs) {
  const me = await requireAdmin(args);
  const form = await args.request.formData();
  const intent = String(form.get("intent") ?? "");
  const deps = { sources: args.context.repos.sources };
  const actor = { actorUserId: me.id };
  const done = (result: ActionResult) => {
    args.context.invalidatePublicPages();
    return result;
  };
  const failed = (status: number, result: ActionResult) => data<ActionResult>(result, { status });
  try {
    switch (intent) {
      case "create":
        await createSource(deps, { ...actor, form: sourceFormFromData(form) });
        return done({ ok: true, toast: SOURCE_MESSAGES.created });
      case "update":
        await updateSource(deps, { ...actor, sourceId: SourceId.parse(form.get("sourceId")), form: sourceFormFromData(form) });
        return done({ ok: true, toast: SOURCE_MESSAGES.updated });
      case "delete":
        await deleteSource(deps, { ...actor, sourceId: SourceId.parse(form.get("sourceId")) });
        return done({ ok: true, toast: SOURCE_MESSAGES.deleted });
      case "import": {
        const file = form.get("file");
        if (!(file instanceof File) || file.size === 0) return failed(400, { ok: false, toast: { title: "OPML import failed", description: "Choose an .opml file first.", tone: "error" } });
        if (file.size > OPML_MAX_BYTES) {
          return failed(400, { ok: false, toast: { title: "OPML import failed", description: `The file is larger than ${OPML_MAX_BYTES / 1024 / 1024} MiB.`, tone: "error" } });
        }
        const result = await importSourcesOpml(deps, { ...actor, xml: await file.text() });
        const notes = [
          ...result.skipped.map((s) => `${s.name}: ${s.reason}`),
          ...result.invalid.map((s) => `${s.name}: ${s.reason}`),
        ];
        return done({
          ok: true,
          toast: {
            title: `Imported ${plural(result.imported.length, "source", "sources")}, skipped ${result.skipped.length + result.invalid.length}`,
            description: notes.length ? notes.slice(0, 5).join("; ") + (notes.length > 5 ? `; and ${notes.length - 5} more` : "") : undefined,
          },
        });
      }
      default:
        return failed(400, { ok: false, toast: { title: "Error", description: "Unknown action", tone: "error" } });
    }
  } catch (error) {
    const title =
      intent === "create" ? SOURCE_MESSAGES.createFailed : intent === "update" ? SOURCE_MESSAGES.updateFailed : intent === "delete" ? SOURCE_MESSAGES.deleteFailed : "OPML import failed";
    if (error instanceof InvalidSourceError) {
      return failed(400, { ok: false, toast: { title, description: SOURCE_MESSAGES.fixFields, tone: "error" }, fieldErrors: error.fieldErrors });
    }
    if (error instanceof DomainError || error instanceof z.ZodError) {
      const message = error instanceof DomainError ? error.message : "That source is not known";
      return failed(400, { ok: false, toast: { title, description: intent === "delete" ? `Error: ${message}` : message, tone: "error" } });
    }
    args.context.logger.error({ err: error, intent }, "source action failed");
    const message = "Something went wrong. Please try again.";
    return failed(500, { ok: false, toast: { title, description: intent === "delete" ? `Error: ${message}` : message, tone: "error" } });
  }
}


// ---------------------------------------------------------------------------------------------
// Tabs

const TABS = [
  { id: "sources", label: "Sources" },
  { id: "rss-validator", label: "RSS Validator" },
  { id: "manual-scrape", label: "Manual Scrape" },
  { id: "watchlist", label: "Watchlist" },
] as const;
type TabId = (typeof TABS)[number]["id"];

function Tabs({ active, onSelect }: { active: TabId; onSelect: (tab: TabId) => void }) {
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});
  const onKeyDown = (event: ReactKeyboardEvent) => {
    // From the focused tab, not the selected one: the URL (and so the selection) catches up a moment later.
    const focused = TABS.findIndex((t) => refs.current[t.id] === event.target);
    const index = focused >= 0 ? focused : TABS.findIndex((t) => t.id === active);
    const to = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: TABS.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    const next = TABS[(to + TABS.length) % TABS.length]!;
    onSelect(next.id);
    refs.current[next.id]?.focus();
  };
  return (
    <div role="tablist" aria-label="Source tools" onKeyDown={onKeyDown} className="mt-6 flex gap-1 overflow-x-auto border-b-2 border-ink">
      {TABS.map((tab) => {
        const selected = tab.id === active;
        return (
          <button
            key={tab.id}
            ref={(el) => {
              refs.current[tab.id] = el;
            }}
            type="button"
            role="tab"
            id={`tab-${tab.id}`}
            aria-selected={selected}
            aria-controls={`panel-${tab.id}`}
            tabIndex={selected ? 0 : -1}
            onClick={() => onSelect(tab.id)}
            className={`-mb-0.5 shrink-0 rounded-t-xl border-2 px-4 py-2 text-sm font-bold whitespace-nowrap ${
              selected ? "border-ink border-b-paper bg-paper text-ink" : "border-transparent text-ink/75 hover:bg-white hover:text-ink"
            }`}
          >
            {tab.label}
          </button>
        );
      })}
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// Cards

const STATUS_BADGE: Record<SourceView["status"], string> = {
  active: "border-green-200 bg-green-200 text-green-900",
  inactive: "border-gray-200 bg-gray-200 text-gray-800",
  error: "border-alarm-ink bg-alarm-ink text-white",
};
const TYPE_BADGE: Record<SourceType, string> = {
  rss: "border-orange-700 bg-orange-50 text-orange-900",
  web_scraping: "border-ufo-deep text-ufo-deep bg-ufo/5",
  manual: "border-ink/60 text-ink bg-paper",
};

function Badge({ className, children }: { className: string; children: React.ReactNode }) {
  return <span className={`inline-flex items-center rounded-full border-2 px-2 py-0.5 text-xs font-bold ${className}`}>{children}</span>;
}

function ExternalLink({ label, url }: { label: string; url: string | null }) {
  const href = safeHref(url);
  if (!href) return null;
  return (
    <div className="flex min-w-0 items-baseline gap-2 text-sm">
      <dt className="shrink-0 font-bold">{label}</dt>
      <dd className="min-w-0">
        <a href={href} target="_blank" rel="noopener noreferrer" className={`${linkClass} inline-flex max-w-full items-center gap-1`}>
          <span className="truncate">{href.replace(/^https?:\/\//i, "")}</span>
          <ExternalIcon className="h-3.5 w-3.5 shrink-0" />
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
      </dd>
    </div>
  );
}

function Chips({ label, words, tone }: { label: string; words: string[]; tone: "include" | "exclude" }) {
  if (words.length === 0) return null;
  const colour = tone === "include" ? "bg-acid/60 border-ink/30" : "bg-red-50 border-alarm-ink/40 text-alarm-ink";
  return (
    <div className="flex flex-wrap items-center gap-1.5 text-sm">
      <span className="font-bold">{label}</span>
      <ul className="flex flex-wrap gap-1.5" aria-label={`${label} keywords`}>
        {words.map((w) => (
          <li key={w} className={`rounded-full border px-2 py-0.5 text-xs font-semibold ${colour}`}>
            {w}
          </li>
        ))}
      </ul>
    </div>
  );
}

function when(iso: string) {
  return (
    <time dateTime={iso}>
      {formatDate(iso)} at {formatTime(iso)} UTC
    </time>
  );
}

function Health({ source }: { source: SourceView }) {
  const { health } = source;
  const error = health.lastError && source.status === "error";
  return (
    <div className="rounded-xl bg-paper px-3 py-2 text-sm">
      <dl className="grid gap-x-6 gap-y-1 sm:grid-cols-2">
        <div>
          <dt className="inline font-bold">Last fetched: </dt>
          <dd className="inline">{health.lastFetchedAt ? when(health.lastFetchedAt) : "Never fetched"}</dd>
        </div>
        <div>
          <dt className="inline font-bold">Last {HEALTH_WINDOW_DAYS} days: </dt>
          <dd className="inline">
            {plural(health.recentStories, "item", "items")} found
            {health.publishedPercent !== null ? `, ${health.publishedPercent}% published` : ""}
          </dd>
        </div>
        {source.sourceType === "rss" ? (
          <div>
            <dt className="inline font-bold">Checked every: </dt>
            <dd className="inline">{plural(source.pollIntervalMinutes, "minute", "minutes")}</dd>
          </div>
        ) : null}
      </dl>
      {health.lastError && !error ? (
        <p className="mt-1 text-ink/70">
          <span className="font-bold">Last error:</span> {health.lastError}
        </p>
      ) : null}
      {error ? (
        <div className="mt-2 rounded-lg border-2 border-alarm-ink bg-red-50 px-3 py-2 text-alarm-ink">
          <p className="font-bold">
            Last error{health.consecutiveErrors > 1 ? ` (${health.consecutiveErrors} failures in a row)` : ""}:
          </p>
          <p className="break-words">{health.lastError}</p>
        </div>
      ) : null}
    </div>
  );
}

// One fetcher for every card's Delete, shared through its key: its toast is shown by the page, which
// outlives the card that disappears on success.
const DELETE_FETCHER = "source-delete";

function SourceCard({ source, onEdit }: { source: SourceView; onEdit: () => void }) {
  const fetcher = useFetcher<ActionResult>({ key: DELETE_FETCHER });
  const deleting = fetcher.state !== "idle" && fetcher.formData?.get("sourceId") === String(source.id);
  return (
    <li aria-labelledby={`source-${source.id}-name`} className={`flex flex-col gap-3 rounded-2xl border-2 bg-white p-5 ${source.status === "error" ? "border-alarm-ink" : "border-ink"} ${deleting ? "opacity-60" : ""}`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h2 id={`source-${source.id}-name`} className="min-w-0 font-display text-xl font-bold break-words">
          {source.name}
        </h2>
        <div className="flex shrink-0 gap-1.5">
          <Badge className={STATUS_BADGE[source.status]}>
            <span className="sr-only">Status: </span>
            {source.status}
          </Badge>
          <Badge className={TYPE_BADGE[source.sourceType]}>
            <span className="sr-only">Type: </span>
            {SOURCE_TYPE_LABELS[source.sourceType]}
          </Badge>
        </div>
      </div>
      {source.websiteUrl || source.rssFeedUrl ? (
        <dl className="space-y-1">
          <ExternalLink label="Website" url={source.websiteUrl} />
          <ExternalLink label="Feed" url={source.rssFeedUrl} />
        </dl>
      ) : null}
      <Chips label="Include" words={source.includeKeywords} tone="include" />
      <Chips label="Exclude" words={source.excludeKeywords} tone="exclude" />
      {source.notes ? <p className="text-sm whitespace-pre-line text-ink/80">{source.notes}</p> : null}
      {/* Health and actions sit at the bottom, so they line up across a row of cards. */}
      <div className="mt-auto space-y-3">
        <Health source={source} />
        <div className="flex gap-2">
          <button type="button" onClick={onEdit} className={secondaryButtonClass}>
            Edit<span className="sr-only"> {source.name}</span>
          </button>
          <button
            type="button"
            disabled={deleting}
            onClick={() => {
              if (window.confirm(`Delete "${source.name}"? Its stories, rejected stories, and logs are removed too. This cannot be undone.`)) {
                fetcher.submit({ intent: "delete", sourceId: String(source.id) }, { method: "post" });
              }
            }}
            className={`${secondaryButtonClass} border-alarm-ink text-alarm-ink hover:bg-alarm-ink hover:text-white`}
          >
            {deleting ? "Deleting..." : "Delete"}
            <span className="sr-only"> {source.name}</span>
          </button>
        </div>
      </div>
    </li>
  );
}

function OpmlTools() {
  const fetcher = useFetcher<ActionResult>();
  const form = useRef<HTMLFormElement>(null);
  const [chosen, setChosen] = useState(false);
  useActionToast(fetcher.data);
  // A finished import empties the file input.
  const [seen, setSeen] = useState(fetcher.data);
  if (fetcher.data !== seen) {
    setSeen(fetcher.data);
    if (fetcher.data?.ok) setChosen(false);
  }
  useEffect(() => {
    if (fetcher.data?.ok) form.current?.reset();
  }, [fetcher.data]);
  return (
    <div className="flex flex-wrap items-center gap-2">
      <fetcher.Form ref={form} method="post" encType="multipart/form-data" className="flex flex-wrap items-center gap-2">
        <input type="hidden" name="intent" value="import" />
        <label htmlFor="opml-file" className="sr-only">
          OPML file to import
        </label>
        <input
          id="opml-file"
          name="file"
          type="file"
          accept=".opml,.xml,text/x-opml,application/xml,text/xml"
          onChange={(e) => setChosen((e.target.files?.length ?? 0) > 0)}
          className="max-w-56 text-sm file:mr-2 file:rounded-full file:border-2 file:border-ink file:bg-white file:px-3 file:py-1 file:font-bold file:text-ink hover:file:bg-acid"
        />
        <button type="submit" disabled={!chosen || fetcher.state !== "idle"} className={secondaryButtonClass}>
          {fetcher.state !== "idle" ? "Importing..." : "Import OPML"}
        </button>
      </fetcher.Form>
      <a href="/admin/sources.opml" download="oddwire-sources.opml" className={secondaryButtonClass}>
        Export OPML
      </a>
    </div>
  );
}

function SourcesPanel({ sources, q, onEdit }: { sources: SourceView[]; q: string; onEdit: (source: SourceView) => void }) {
  const navigation = useNavigation();
  const searching = navigation.state === "loading" && navigation.location.pathname === "/admin/sources" && new URLSearchParams(navigation.location.search).get("q") !== (q || null);
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Form method="get" role="search" className="flex w-full min-w-0 gap-2 lg:w-auto lg:max-w-md lg:flex-1">
          <label htmlFor="source-search" className="sr-only">
            Search sources
          </label>
          <div className="relative min-w-0 flex-1">
            <SearchIcon className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-ink/60" />
            <input id="source-search" name="q" type="search" defaultValue={q} key={q} placeholder="Search sources..." className={`${inputClass} rounded-full pl-9`} />
          </div>
          <button type="submit" className="rounded-full border-2 border-ink bg-white px-4 py-2 font-bold hover:bg-acid">
            Search
          </button>
        </Form>
        <OpmlTools />
      </div>
      <p className="mt-4 text-sm text-ink/70" aria-live="polite">
        {searching ? "Searching..." : `${plural(sources.length, "source", "sources")}${q ? ` matching "${q}"` : ""}`}
      </p>
      {sources.length === 0 ? (
        <p className="mt-4 rounded-2xl border-2 border-dashed border-ink/40 p-10 text-center font-semibold">No sources found matching your criteria</p>
      ) : (
        <ul className={`mt-3 grid gap-4 xl:grid-cols-2 ${searching ? "opacity-60" : ""}`}>
          {sources.map((source) => (
            <SourceCard key={source.id} source={source} onEdit={() => onEdit(source)} />
          ))}
        </ul>
      )}
    </>
  );
}

// ---------------------------------------------------------------------------------------------
// The create and edit dialog

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p id={id} className="mt-1 text-sm font-semibold text-alarm-ink">
      {message}
    </p>
  ) : null;
}

function KeywordInput({
  name,
  label,
  words,
  onChange,
  error,
}: {
  name: "includeKeywords" | "excludeKeywords";
  label: string;
  words: string[];
  onChange: (words: string[]) => void;
  error: string | undefined;
}) {
  const [draft, setDraft] = useState("");
  const id = useId();
  const add = () => {
    onChange(addKeyword(words, draft));
    setDraft("");
  };
  return (
    <fieldset>
      <legend className="text-sm font-bold">{label}</legend>
      {words.map((w) => (
        <input key={w} type="hidden" name={name} value={w} />
      ))}
      <div className="mt-1 flex gap-2">
        <label htmlFor={id} className="sr-only">
          New {label.toLowerCase()}
        </label>
        <input
          id={id}
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              add();
            }
          }}
          placeholder="Type a keyword, press Enter"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className={`${inputClass} py-1.5`}
        />
        <button type="button" onClick={add} className={secondaryButtonClass}>
          Add<span className="sr-only"> {label.toLowerCase()}</span>
        </button>
      </div>
      {words.length > 0 ? (
        <ul className="mt-2 flex flex-wrap gap-1.5" aria-label={label}>
          {words.map((w) => (
            <li key={w} className="inline-flex items-center gap-1 rounded-full border border-ink/30 bg-paper py-0.5 pr-1 pl-2.5 text-sm font-semibold">
              {w}
              <button
                type="button"
                onClick={() => onChange(words.filter((k) => k !== w))}
                aria-label={`Remove ${w} from ${label.toLowerCase()}`}
                className="rounded-full p-0.5 hover:bg-alarm-ink hover:text-white"
              >
                <CloseIcon className="h-3.5 w-3.5" />
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-1 text-xs text-ink/70">None</p>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </fieldset>
  );
}

const FIELD_ORDER: SourceFormField[] = ["name", "sourceType", "websiteUrl", "rssFeedUrl", "status", "pollIntervalMinutes", "scrapingConfig", "includeKeywords", "excludeKeywords", "notes"];

function SourceDialog({ source, onClose }: { source: SourceView | null; onClose: () => void }) {
  const fetcher = useFetcher<ActionResult>();
  const ref = useRef<HTMLDialogElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const adding = source === null;
  const [sourceType, setSourceType] = useState<SourceType>(source?.sourceType ?? "rss");
  const [active, setActive] = useState(source ? source.status !== "inactive" : true);
  const [config, setConfig] = useState(source && Object.keys(source.scrapingConfig).length > 0 ? JSON.stringify(source.scrapingConfig, null, 2) : "");
  const [include, setInclude] = useState(source?.includeKeywords ?? []);
  const [exclude, setExclude] = useState(source?.excludeKeywords ?? []);
  const [errors, setErrors] = useState<SourceFieldErrors>({});
  useActionToast(fetcher.data);

  useEffect(() => {
    ref.current?.showModal();
  }, []);
  // The server's field errors replace the browser's once per answer; a success closes the dialog.
  const [answered, setAnswered] = useState(fetcher.data);
  if (fetcher.data !== answered) {
    setAnswered(fetcher.data);
    if (fetcher.data?.fieldErrors) setErrors(fetcher.data.fieldErrors);
  }
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) onClose();
  }, [fetcher.state, fetcher.data, onClose]);

  const configCheck = parseScrapingConfig(config);
  const configBlocks = sourceType === "web_scraping" && !configCheck.ok;
  const saving = fetcher.state !== "idle";
  const clear = (field: SourceFormField) => setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));
  const describe = (field: SourceFormField, hint?: string) => {
    const ids = [errors[field] ? `source-${field}-error` : null, hint].filter(Boolean).join(" ");
    return { "aria-invalid": errors[field] ? true : undefined, "aria-describedby": ids || undefined };
  };
  const field = (extra = "") => `${inputClass} mt-1 ${extra}`;

  return (
    <dialog
      ref={ref}
      onClose={onClose}
      aria-labelledby="source-dialog-title"
      className="m-auto max-h-[92vh] w-[min(95vw,48rem)] overflow-y-auto rounded-2xl border-4 border-ink bg-paper p-0 backdrop:bg-ink/60"
    >
      <div className="sticky top-0 z-10 flex items-center justify-between border-b-2 border-ink bg-paper px-6 py-4">
        <h2 id="source-dialog-title" className="font-display text-2xl font-extrabold">
          {adding ? "Create New Source" : "Edit Source"}
        </h2>
        <button type="button" onClick={onClose} aria-label="Close" className="rounded-full p-1.5 hover:bg-ink hover:text-paper">
          <CloseIcon className="h-5 w-5" />
        </button>
      </div>
      <fetcher.Form
        ref={formRef}
        method="post"
        noValidate
        className="grid gap-4 px-6 py-5 sm:grid-cols-2"
        onSubmit={(event) => {
          const check = validateSourceForm(sourceFormFromData(new FormData(event.currentTarget)));
          if (!check.ok || configBlocks) {
            event.preventDefault();
            if (!check.ok) {
              setErrors(check.errors);
              const first = FIELD_ORDER.find((f) => check.errors[f]);
              formRef.current?.querySelector<HTMLElement>(`[data-field="${first}"]`)?.focus();
            }
          }
        }}
      >
        <input type="hidden" name="intent" value={adding ? "create" : "update"} />
        {source ? <input type="hidden" name="sourceId" value={source.id} /> : null}
        <div>
          <label htmlFor="source-name" className="text-sm font-bold">
            Name <span aria-hidden="true">*</span>
          </label>
          <input id="source-name" data-field="name" name="name" required defaultValue={source?.name ?? ""} onInput={() => clear("name")} className={field()} {...describe("name")} />
          <FieldError id="source-name-error" message={errors.name} />
        </div>
        <div>
          <label htmlFor="source-type" className="text-sm font-bold">
            Source Type
          </label>
          <select
            id="source-type"
            data-field="sourceType"
            name="sourceType"
            value={sourceType}
            onChange={(e) => {
              setSourceType(e.target.value as SourceType);
              clear("sourceType");
              clear("rssFeedUrl");
              clear("scrapingConfig");
            }}
            className={field()}
            {...describe("sourceType")}
          >
            {SOURCE_TYPES.map((t) => (
              <option key={t} value={t}>
                {SOURCE_TYPE_LABELS[t]}
              </option>
            ))}
          </select>
          <FieldError id="source-sourceType-error" message={errors.sourceType} />
        </div>
        <div>
          <label htmlFor="source-website" className="text-sm font-bold">
            Website URL
          </label>
          <input
            id="source-website"
            data-field="websiteUrl"
            name="websiteUrl"
            type="url"
            inputMode="url"
            placeholder="https://example.com"
            defaultValue={source?.websiteUrl ?? ""}
            onInput={() => clear("websiteUrl")}
            className={field()}
            {...describe("websiteUrl")}
          />
          <FieldError id="source-websiteUrl-error" message={errors.websiteUrl} />
        </div>
        <div>
          <label htmlFor="source-feed" className="text-sm font-bold">
            RSS Feed URL {sourceType === "rss" ? <span aria-hidden="true">*</span> : <span className="font-normal text-ink/70">(optional)</span>}
          </label>
          <input
            id="source-feed"
            data-field="rssFeedUrl"
            name="rssFeedUrl"
            type="url"
            inputMode="url"
            required={sourceType === "rss"}
            placeholder="https://example.com/feed.xml"
            defaultValue={source?.rssFeedUrl ?? ""}
            onInput={() => clear("rssFeedUrl")}
            className={field()}
            {...describe("rssFeedUrl")}
          />
          <FieldError id="source-rssFeedUrl-error" message={errors.rssFeedUrl} />
        </div>
        <div>
          <span id="source-status-label" className="text-sm font-bold">
            Status
          </span>
          <input type="hidden" name="status" value={active ? "active" : "inactive"} />
          <div className="mt-1 flex items-center gap-3">
            <button
              type="button"
              role="switch"
              data-field="status"
              aria-checked={active}
              aria-labelledby="source-status-label source-status-value"
              onClick={() => setActive((a) => !a)}
              className={`relative h-7 w-12 shrink-0 rounded-full border-2 border-ink transition-colors ${active ? "bg-green-700" : "bg-gray-300"}`}
            >
              <span className={`absolute top-0.5 h-5 w-5 rounded-full border-2 border-ink bg-white transition-all ${active ? "left-[1.45rem]" : "left-0.5"}`} />
            </button>
            <span id="source-status-value" className="font-semibold">
              {active ? "Active" : "Inactive"}
            </span>
          </div>
          {source?.status === "error" ? (
            <p className="mt-1 rounded-lg bg-red-50 px-2 py-1 text-sm text-alarm-ink">
              This source is in <strong>error</strong>. Saving with the switch on makes it active again; it is then checked at once.
            </p>
          ) : null}
          <FieldError id="source-status-error" message={errors.status} />
        </div>
        <div>
          <label htmlFor="source-interval" className="text-sm font-bold">
            Polling interval (minutes)
          </label>
          <input
            id="source-interval"
            data-field="pollIntervalMinutes"
            name="pollIntervalMinutes"
            type="number"
            min={POLL_INTERVAL.min}
            max={POLL_INTERVAL.max}
            step={1}
            defaultValue={source?.pollIntervalMinutes ?? POLL_INTERVAL.default}
            onInput={() => clear("pollIntervalMinutes")}
            className={field()}
            {...describe("pollIntervalMinutes", "source-interval-hint")}
          />
          <p id="source-interval-hint" className="mt-1 text-xs text-ink/70">
            From {POLL_INTERVAL.min} to {POLL_INTERVAL.max} (one day).
          </p>
          <FieldError id="source-pollIntervalMinutes-error" message={errors.pollIntervalMinutes} />
        </div>
        <div className="sm:col-span-2">
          <label htmlFor="source-config" className="text-sm font-bold">
            Scraping Config (JSON) {sourceType === "web_scraping" ? null : <span className="font-normal text-ink/70">(used by Web Scraping sources)</span>}
          </label>
          <textarea
            id="source-config"
            data-field="scrapingConfig"
            name="scrapingConfig"
            rows={10}
            spellCheck={false}
            value={config}
            onChange={(e) => {
              setConfig(e.target.value);
              clear("scrapingConfig");
            }}
            placeholder={SCRAPING_CONFIG_PLACEHOLDER}
            className={field("font-mono text-sm")}
            {...describe("scrapingConfig", !configCheck.ok ? "source-config-inline" : undefined)}
          />
          {!configCheck.ok ? (
            <p id="source-config-inline" className={`mt-1 text-sm font-semibold ${configBlocks ? "text-alarm-ink" : "text-ink/70"}`}>
              {configBlocks ? configCheck.message : `${configCheck.message.replace(" Please fix before saving.", "")} It is not saved for this source type.`}
            </p>
          ) : null}
          {errors.scrapingConfig && errors.scrapingConfig !== (configCheck.ok ? undefined : configCheck.message) ? (
            <FieldError id="source-scrapingConfig-error" message={errors.scrapingConfig} />
          ) : null}
        </div>
        <KeywordInput name="includeKeywords" label="Include keywords" words={include} onChange={(w) => (setInclude(w), clear("includeKeywords"))} error={errors.includeKeywords} />
        <KeywordInput name="excludeKeywords" label="Exclude keywords" words={exclude} onChange={(w) => (setExclude(w), clear("excludeKeywords"))} error={errors.excludeKeywords} />
        <div className="sm:col-span-2">
          <label htmlFor="source-notes" className="text-sm font-bold">
            Notes
          </label>
          <textarea id="source-notes" data-field="notes" name="notes" rows={3} defaultValue={source?.notes ?? ""} onInput={() => clear("notes")} className={field()} {...describe("notes")} />
          <FieldError id="source-notes-error" message={errors.notes} />
        </div>
        {configBlocks ? (
          <div role="alert" className="rounded-xl border-2 border-alarm-ink bg-red-50 px-4 py-3 font-semibold text-alarm-ink sm:col-span-2">
            {INVALID_JSON_ALERT}
          </div>
        ) : null}
        <div className="flex justify-end gap-2 border-t-2 border-ink/20 pt-4 sm:col-span-2">
          <button type="button" onClick={onClose} className="rounded-full border-2 border-ink px-5 py-2 font-bold hover:bg-white">
            Cancel
          </button>
          <button type="submit" disabled={configBlocks || saving} className={primaryButtonClass}>
            {saving ? "Saving..." : adding ? "Create Source" : "Save Changes"}
          </button>
        </div>
      </fetcher.Form>
    </dialog>
  );
}

// ---------------------------------------------------------------------------------------------
// The page

export default function Sources({ loaderData }: Route.ComponentProps) {
  const { sources, sourceNames, q } = loaderData;
  const [search, setSearch] = useSearchParams();
  const [dialog, setDialog] = useState<{ source: SourceView | null } | null>(null);
  const closeDialog = useCallback(() => setDialog(null), []);
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
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="font-display text-4xl font-extrabold">Sources</h1>
          <p className="mt-1 text-ink/70">Manage RSS feeds and content sources</p>
        </div>
        <div className="flex flex-wrap items-start gap-2">
          <IngestionTrigger />
          <button type="button" onClick={() => setDialog({ source: null })} className={primaryButtonClass}>
            Add New Source
          </button>
        </div>
      </div>
      <Tabs active={tab} onSelect={selectTab} />
      {TABS.map((t) => (
        <div key={t.id} role="tabpanel" id={`panel-${t.id}`} aria-labelledby={`tab-${t.id}`} hidden={t.id !== tab} tabIndex={0} className="pt-6">
          {t.id === "sources" ? <SourcesPanel sources={sources} q={q} onEdit={(source) => setDialog({ source })} /> : null}
          {t.id === "rss-validator" ? <RssValidatorTab /> : null}
          {t.id === "manual-scrape" ? <ManualScrapeTab sources={sourceNames} /> : null}
          {t.id === "watchlist" ? <WatchlistTab /> : null}
        </div>
      ))}
      {open ? <SourceDialog key={dialog.source?.id ?? "new"} source={editing} onClose={closeDialog} /> : null}
    </>
  );
}
