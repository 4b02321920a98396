/** A friendly message where a list would be: empty results, errors. */
export function Notice({
  title,
  children,
  tone = "plain",
  heading: Heading = "p",
}: {
  title: string;
  children?: React.ReactNode;
  tone?: "plain" | "error";
  /** The title's element: h1 when the notice is the whole page. */
  heading?: "h1" | "h2" | "p";
}) {
  return (
    <div
      role={tone === "error" ? "alert" : undefined}
      className={`mt-8 rounded-2xl border-2 border-dashed p-10 text-center ${tone === "error" ? "border-alarm bg-alarm/5" : "border-ink/40"}`}
    >
      <Heading className="font-display text-2xl font-bold">{title}</Heading>
      {children ? <div className="mt-2 text-ink/70">{children}</div> : null}
    </div>
  );
}

/** Grey stand-ins for story cards while a list loads. */
export function PlaceholderCards({ count }: { count: number }) {
  return (
    <div className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-hidden="true">
      {Array.from({ length: count }, (_, i) => (
        <div key={i} className="animate-pulse overflow-hidden rounded-2xl border-2 border-ink/20 bg-white">
          <div className="aspect-[16/9] bg-paper-deep" />
          <div className="space-y-3 p-4">
            <div className="h-3 w-1/3 rounded bg-paper-deep" />
            <div className="h-5 w-5/6 rounded bg-paper-deep" />
            <div className="h-4 w-full rounded bg-paper-deep" />
          </div>
        </div>
      ))}
    </div>
  );
}
