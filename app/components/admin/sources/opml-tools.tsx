import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { useActionToast, type ActionResult } from "~/app/lib/action-toast";
import { secondaryButtonClass } from "./ui";

/** Import an OPML file of feeds, or export every source with a feed. */
export function OpmlTools() {
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
