import { useEffect, useId, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { DisabledReason } from "~/app/components/admin/disabled-reason";
import { useActionToast, type ActionResult } from "~/app/lib/action-toast";
import { secondaryButtonClass } from "./ui";

// The file input itself is hidden (but focusable): its label is the button the editor sees, with the
// focus ring the input would have had.
const pickerClass = `${secondaryButtonClass} cursor-pointer has-[input:focus-visible]:outline-3 has-[input:focus-visible]:outline-offset-2 has-[input:focus-visible]:outline-ufo has-[input:focus-visible]:outline-solid`;

/** Import an OPML file of feeds, or export every source with a feed. */
export function OpmlTools() {
  const fetcher = useFetcher<ActionResult>();
  const form = useRef<HTMLFormElement>(null);
  const statusId = useId();
  const [chosen, setChosen] = useState<string | null>(null);
  useActionToast(fetcher.data);
  // A finished import empties the file input.
  const [seen, setSeen] = useState(fetcher.data);
  if (fetcher.data !== seen) {
    setSeen(fetcher.data);
    if (fetcher.data?.ok) setChosen(null);
  }
  useEffect(() => {
    if (fetcher.data?.ok) form.current?.reset();
  }, [fetcher.data]);
  const busy = fetcher.state !== "idle";
  return (
    <div className="flex flex-wrap items-center gap-2">
      <fetcher.Form ref={form} method="post" encType="multipart/form-data" className="flex flex-wrap items-center gap-2">
        <input type="hidden" name="intent" value="import" />
        <label className={pickerClass}>
          Choose OPML file
          <input
            name="file"
            type="file"
            accept=".opml,.xml,text/x-opml,application/xml,text/xml"
            onChange={(e) => setChosen(e.target.files?.[0]?.name ?? null)}
            className="sr-only"
          />
        </label>
        {chosen ? (
          <span id={statusId} className="max-w-48 truncate text-sm font-semibold" title={chosen}>
            {chosen}
          </span>
        ) : (
          <DisabledReason id={statusId}>Choose a file to import</DisabledReason>
        )}
        <button type="submit" disabled={!chosen || busy} aria-describedby={statusId} className={secondaryButtonClass}>
          {busy ? "Importing..." : "Import OPML"}
        </button>
      </fetcher.Form>
      <a href="/admin/sources.opml" download="oddwire-sources.opml" className={secondaryButtonClass}>
        Export OPML
      </a>
    </div>
  );
}
