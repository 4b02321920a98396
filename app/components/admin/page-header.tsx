import type { ReactNode } from "react";

/** The top of every back-office screen: its h1, an optional line on what it is for, and its main actions. */
export function PageHeader({ title, description, actions }: { title: ReactNode; description?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-4">
      <div>
        <h1 className="font-display text-4xl font-extrabold">{title}</h1>
        {description ? <p className="mt-1 text-ink/70">{description}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap items-start gap-2">{actions}</div> : null}
    </div>
  );
}
