import { useId, useState } from "react";
import { CloseIcon } from "~/app/components/icons";
import { addKeyword } from "~/domain/sources/source-form";
import { inputClass, secondaryButtonClass } from "./ui";

/** A field's problem, under the field. */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p id={id} className="mt-1 text-sm font-semibold text-alarm-ink">
      {message}
    </p>
  ) : null;
}

/** A keyword list: chips removable one by one, a new one added with Enter or Add. */
export function KeywordInput({
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
