import { useId, useRef, useState } from "react";
import type { FetcherWithComponents } from "react-router";
import { inputClass, primaryButtonClass } from "~/app/components/admin/sources/ui";
import { Spinner } from "~/app/components/admin/sources/spinner";
import { IMAGE_TEXT, TOAST_MS } from "~/domain/images/panel-rules";
import type { ImageAnswer } from "./image-panel";
import { showPanelToast } from "./use-image-run";

/**
 * The single-story test: a story ID, required, and an optional image URL to use
 * instead of looking on the story's page. A blank ID is refused here, before anything is sent.
 */
export function ImageTestForm({ fetcher, disabled, busy }: { fetcher: FetcherWithComponents<ImageAnswer>; disabled: boolean; busy: boolean }) {
  const id = useId();
  const storyInput = useRef<HTMLInputElement>(null);
  const [blank, setBlank] = useState(false);
  const fields = fetcher.state === "idle" ? fetcher.data?.fields : undefined;
  const storyError = blank ? IMAGE_TEXT.storyIdRequired.description : fields?.storyId;
  const urlError = fields?.customImageUrl;
  return (
    <fetcher.Form
      method="post"
      noValidate
      onSubmit={(event) => {
        if (disabled) {
          event.preventDefault();
          return;
        }
        const storyId = String(new FormData(event.currentTarget).get("storyId") ?? "").trim();
        if (storyId === "") {
          event.preventDefault();
          setBlank(true);
          showPanelToast({ tone: "error", ...IMAGE_TEXT.storyIdRequired, duration: TOAST_MS.missingId }, "image-story-id-required");
          storyInput.current?.focus();
          return;
        }
        setBlank(false);
      }}
    >
      <input type="hidden" name="intent" value="enhance-test" />
      <div className="grid gap-3 sm:grid-cols-[9rem_1fr]">
        <div>
          <label htmlFor={`${id}-story`} className="block text-sm font-bold">
            Story ID
          </label>
          <input
            ref={storyInput}
            id={`${id}-story`}
            name="storyId"
            inputMode="numeric"
            autoComplete="off"
            placeholder="e.g. 42"
            aria-invalid={storyError ? true : undefined}
            aria-describedby={storyError ? `${id}-story-error` : undefined}
            // The toast has said it; once the editor types or moves on, the field's own mark goes too.
            onChange={() => setBlank(false)}
            onBlur={() => setBlank(false)}
            className={`mt-1 ${inputClass}`}
          />
        </div>
        <div>
          <label htmlFor={`${id}-url`} className="block text-sm font-bold">
            Custom image URL <span className="font-normal text-ink/70">(optional)</span>
          </label>
          <input
            id={`${id}-url`}
            name="customImageUrl"
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder="https://example.com/large-photo.jpg"
            aria-invalid={urlError ? true : undefined}
            aria-describedby={urlError ? `${id}-url-error` : `${id}-url-hint`}
            className={`mt-1 ${inputClass}`}
          />
        </div>
      </div>
      {storyError ? (
        <p id={`${id}-story-error`} className="mt-2 text-sm font-semibold text-alarm-ink">
          {storyError}
        </p>
      ) : null}
      {urlError ? (
        <p id={`${id}-url-error`} className="mt-2 text-sm font-semibold text-alarm-ink">
          {urlError}
        </p>
      ) : (
        <p id={`${id}-url-hint`} className="mt-2 text-xs text-ink/70">
          Without one, the story&apos;s original page is searched for a larger image.
        </p>
      )}
      {/* aria-disabled, not disabled: the button keeps the focus while the test it started runs. */}
      <button
        type="submit"
        aria-disabled={disabled || undefined}
        aria-busy={busy}
        className={`mt-3 ${primaryButtonClass} aria-disabled:cursor-not-allowed aria-disabled:opacity-60 aria-disabled:hover:bg-ink aria-disabled:hover:text-acid`}
      >
        {busy ? <Spinner /> : null}
        {busy ? "Starting test..." : "Test Story"}
      </button>
    </fetcher.Form>
  );
}
