import type { ReactNode } from "react";

/**
 * Why the control beside it is disabled, in words on the screen: the control points at it with
 * aria-describedby, so a screen reader hears the reason with the control's name.
 */
export function DisabledReason({ id, className = "", children }: { id: string; className?: string; children: ReactNode }) {
  return (
    <p id={id} className={`text-sm text-ink/75 ${className}`}>
      {children}
    </p>
  );
}
