import { useRef, useState } from "react";
import { useFetcher } from "react-router";
import { Dialog } from "~/app/components/admin/dialog";
import { useActionSuccess, useActionToast, type ActionResult } from "~/app/lib/action-toast";
import { formFields } from "~/app/lib/form-fields";
import {
  AUTO_SCRAPE_MAX,
  INVALID_JSON_ALERT,
  parseScrapingConfig,
  POLL_INTERVAL,
  SCRAPING_CONFIG_PLACEHOLDER,
  SOURCE_TYPE_LABELS,
  SOURCE_TYPES,
  sourceFormSchema,
  validateSourceForm,
  type SourceFieldErrors,
  type SourceFormField,
  type SourceType,
} from "~/domain/sources/source-form";
import type { SourceView } from "~/domain/sources/sources";
import { FieldError, KeywordInput } from "./keyword-input";
import { inputClass, primaryButtonClass } from "./ui";
import { CategoryOptions, type CategoryOption } from "~/app/components/admin/category-options";

const FIELD_ORDER: SourceFormField[] = ["name", "sourceType", "websiteUrl", "rssFeedUrl", "status", "pollIntervalMinutes", "defaultCategoryId", "scrapingConfig", "includeKeywords", "excludeKeywords", "notes"];

/** The create and edit dialog: the browser checks with the server's rules, the server's field errors are shown in place. */
export function SourceDialog({ source, categories, onClose }: { source: SourceView | null; categories: CategoryOption[]; onClose: () => void }) {
  const fetcher = useFetcher<ActionResult & { feedWarning?: string }>();
  const formRef = useRef<HTMLFormElement>(null);
  const adding = source === null;
  const [sourceType, setSourceType] = useState<SourceType>(source?.sourceType ?? "rss");
  const [active, setActive] = useState(source ? source.status !== "inactive" : true);
  const [config, setConfig] = useState(source && Object.keys(source.scrapingConfig).length > 0 ? JSON.stringify(source.scrapingConfig, null, 2) : "");
  const [include, setInclude] = useState(source?.includeKeywords ?? []);
  const [exclude, setExclude] = useState(source?.excludeKeywords ?? []);
  const [errors, setErrors] = useState<SourceFieldErrors>({});
  // The server could not read the feed: the editor may fix the URL or save anyway.
  const [feedWarning, setFeedWarning] = useState<string | null>(null);
  const [saveAnyway, setSaveAnyway] = useState(false);
  useActionToast(fetcher.data);

  // The server's field errors replace the browser's once per answer; a success closes the dialog.
  const [answered, setAnswered] = useState(fetcher.data);
  if (fetcher.data !== answered) {
    setAnswered(fetcher.data);
    if (fetcher.data?.fields) setErrors(fetcher.data.fields);
    setFeedWarning(fetcher.data?.feedWarning ?? null);
    setSaveAnyway(false);
  }
  useActionSuccess(fetcher, onClose);

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
    <Dialog title={adding ? "Create New Source" : "Edit Source"} onClose={onClose} width="lg">
      <fetcher.Form
        ref={formRef}
        method="post"
        noValidate
        className="grid gap-4 sm:grid-cols-2"
        onSubmit={(event) => {
          const check = validateSourceForm(sourceFormSchema.parse(formFields(new FormData(event.currentTarget))));
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
              setFeedWarning(null);
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
            onInput={() => {
              clear("rssFeedUrl");
              setFeedWarning(null);
            }}
            className={field()}
            {...describe("rssFeedUrl")}
          />
          <FieldError id="source-rssFeedUrl-error" message={errors.rssFeedUrl} />
        </div>
        <StatusField active={active} onToggle={() => setActive((a) => !a)} inError={source?.status === "error"} error={errors.status} />
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
        <div>
          <label htmlFor="source-category" className="text-sm font-bold">
            Default category
          </label>
          <select
            id="source-category"
            data-field="defaultCategoryId"
            name="defaultCategoryId"
            defaultValue={source?.defaultCategoryId ?? ""}
            onChange={() => clear("defaultCategoryId")}
            className={field()}
            {...describe("defaultCategoryId", "source-category-hint")}
          >
            <option value="">None: the editor chooses</option>
            <CategoryOptions categories={categories} />
          </select>
          <p id="source-category-hint" className="mt-1 text-xs text-ink/70">
            Given to the stories this source brings in.
          </p>
          <FieldError id="source-defaultCategoryId-error" message={errors.defaultCategoryId} />
        </div>
        {sourceType === "web_scraping" ? (
          <div className="sm:col-span-2">
            <label htmlFor="source-config" className="text-sm font-bold">
              Scraping Config (JSON)
            </label>
            <div className="grid gap-3 md:grid-cols-[minmax(0,1fr)_19rem]">
              <div className="flex flex-col">
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
                  className={field("flex-1 font-mono text-sm")}
                  {...describe("scrapingConfig", ["source-config-help-intro", configCheck.ok ? null : "source-config-inline"].filter(Boolean).join(" "))}
                />
                {!configCheck.ok ? (
                  <p id="source-config-inline" className="mt-1 text-sm font-semibold text-alarm-ink">
                    {configCheck.message}
                  </p>
                ) : null}
                {errors.scrapingConfig && errors.scrapingConfig !== (configCheck.ok ? undefined : configCheck.message) ? (
                  <FieldError id="source-scrapingConfig-error" message={errors.scrapingConfig} />
                ) : null}
              </div>
              <ScrapingConfigHelp />
            </div>
          </div>
        ) : (
          // Only Web Scraping sources are configured here; another type keeps what it has (manual scrape reads minBodyThreshold).
          <input type="hidden" name="scrapingConfig" value={config} />
        )}
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
        {feedWarning && sourceType === "rss" ? (
          <div role="alert" className="rounded-xl border-2 border-yellow-600 bg-yellow-50 px-4 py-3 text-sm sm:col-span-2">
            <p className="font-bold">{feedWarning}</p>
            <p className="mt-1">
              Check the RSS Feed URL, or save the source anyway: it is fetched again at each ingestion and shows as failing until the feed can be read.
            </p>
            <label className="mt-2 flex items-center gap-2 font-semibold">
              <input type="checkbox" checked={saveAnyway} onChange={(e) => setSaveAnyway(e.target.checked)} className="h-4 w-4 accent-ufo" />
              Save anyway, without a readable feed
            </label>
          </div>
        ) : null}
        {saveAnyway ? <input type="hidden" name="saveAnyway" value="1" /> : null}
        <div className="flex justify-end gap-2 border-t-2 border-ink/20 pt-4 sm:col-span-2">
          <button type="button" onClick={onClose} className="rounded-full border-2 border-ink px-5 py-2 font-bold hover:bg-white">
            Cancel
          </button>
          <button type="submit" disabled={configBlocks || saving} className={primaryButtonClass}>
            {saving ? "Saving..." : adding ? "Create Source" : "Save Changes"}
          </button>
        </div>
      </fetcher.Form>
    </Dialog>
  );
}

const CONFIG_KEYS: [key: string, meaning: string][] = [
  ["startUrls", "pages whose links are followed"],
  ["allowlistPatterns", "queue only URLs matching one"],
  ["denylistPatterns", "never queue URLs matching one"],
  ["jsRendering", "render pages in a headless browser (false)"],
  ["waitForSelector", "CSS selector to wait for when rendering"],
  ["userAgent", "sent, and matched in robots.txt (Oddwire's)"],
  ["crawlDelay", "ms between requests to the site (1000)"],
  ["minBodyThreshold", "fewest characters of article text (500)"],
  ["autoScrape", `after each discovery, scrape the N newest queued URLs (0 to ${AUTO_SCRAPE_MAX}; 0)`],
];

/** What each config key does, its default, and how URL patterns are written. */
function ScrapingConfigHelp() {
  return (
    <div className="rounded-lg border-2 border-ink/20 bg-white px-3 py-2 text-xs leading-snug">
      <p id="source-config-help-intro">Discovery reads the Website URL&apos;s robots.txt and sitemaps. Every key is optional; defaults in brackets.</p>
      <dl className="mt-1.5 space-y-0.5">
        {CONFIG_KEYS.map(([key, meaning]) => (
          <div key={key}>
            <dt className="inline font-mono font-bold">{key}</dt>
            <dd className="inline">: {meaning}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-1.5">
        <span className="font-bold">Patterns:</span> a glob, <code className="font-mono">*</code> for anything, matched anywhere in the URL ignoring case, or a{" "}
        <code className="font-mono">/regular expression/</code> with optional flags. Deny wins.
      </p>
    </div>
  );
}

/** The Active / Inactive switch; a source in error says what switching it on does. */
function StatusField({ active, onToggle, inError, error }: { active: boolean; onToggle: () => void; inError: boolean; error: string | undefined }) {
  return (
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
          onClick={onToggle}
          className={`relative h-7 w-12 shrink-0 rounded-full border-2 border-ink transition-colors ${active ? "bg-green-700" : "bg-gray-300"}`}
        >
          <span className={`absolute top-0.5 h-5 w-5 rounded-full border-2 border-ink bg-white transition-all ${active ? "left-[1.45rem]" : "left-0.5"}`} />
        </button>
        <span id="source-status-value" className="font-semibold">
          {active ? "Active" : "Inactive"}
        </span>
      </div>
      {inError ? (
        <p className="mt-1 rounded-lg bg-red-50 px-2 py-1 text-sm text-alarm-ink">
          This source is in <strong>error</strong>. Saving with the switch on makes it active again; it is then checked at once.
        </p>
      ) : null}
      <FieldError id="source-status-error" message={error} />
    </div>
  );
}
