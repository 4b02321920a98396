import type { ReactNode } from "react";
import { Spinner } from "./spinner";
import { inputClass, panelClass, primaryButtonClass } from "./ui";

/** The form panel each Sources tool sits in: a heading, a line on what it does, and its fields; submitting is ignored while busy. */
export function ToolPanel(props: { title: string; description: string; busy: boolean; onSubmit: () => Promise<void>; children: ReactNode }) {
  return (
    <form
      noValidate
      className={panelClass}
      onSubmit={(event) => {
        event.preventDefault();
        if (!props.busy) void props.onSubmit();
      }}
    >
      <h2 className="font-display text-xl font-bold">{props.title}</h2>
      <p className="mt-1 text-sm text-ink/70">{props.description}</p>
      {props.children}
    </form>
  );
}

/** A labelled URL input with its submit button beside it (below it on narrow screens). */
export function UrlSubmitRow(props: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  busy: boolean;
  idleLabel: string;
  busyLabel: string;
}) {
  return (
    <>
      <label htmlFor={props.id} className="mt-4 block text-sm font-bold">
        {props.label}
      </label>
      <div className="mt-1 flex flex-col gap-3 sm:flex-row">
        <input
          id={props.id}
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          value={props.value}
          onChange={(event) => props.onChange(event.target.value)}
          placeholder={props.placeholder}
          className={inputClass}
        />
        <button type="submit" disabled={props.busy} aria-busy={props.busy} className={`${primaryButtonClass} shrink-0`}>
          {props.busy ? <Spinner /> : null}
          {props.busy ? props.busyLabel : props.idleLabel}
        </button>
      </div>
    </>
  );
}
