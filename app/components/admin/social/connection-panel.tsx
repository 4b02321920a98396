import { useEffect, useState } from "react";
import { requestJson } from "~/app/components/admin/admin-fetch";
import { Spinner } from "~/app/components/admin/sources/spinner";
import { linkClass, panelClass, secondaryButtonClass, safeHref } from "~/app/components/admin/sources/ui";
import { formatDate, formatTime } from "~/app/lib/format";
import type { ConnectionHealth } from "~/integrations/facebook/graph-client";
import { NEEDED_PERMISSIONS } from "./texts";

type Check = { state: "checking" } | { state: "done"; health: ConnectionHealth } | { state: "error"; message: string };

const code = "rounded bg-ink/10 px-1 py-0.5 font-mono text-[0.85em]";

/** How to connect the site to a Page, shown instead of failing on the first post. */
function NotConnected() {
  return (
    <section aria-labelledby="facebook-connection" className={`${panelClass} border-alarm-ink`}>
      <h2 id="facebook-connection" className="font-display text-xl font-extrabold">
        Facebook is not connected
      </h2>
      <p className="mt-2 max-w-3xl">
        Stories can be posted once the site knows its Facebook Page. Set <code className={code}>FACEBOOK_PAGE_ID</code> (the Page&apos;s numeric id) and{" "}
        <code className={code}>FACEBOOK_PAGE_TOKEN</code> (a Page access token, ideally one that does not expire) in the server&apos;s environment and restart
        it. The token needs the permissions {NEEDED_PERMISSIONS.map((p, i) => (
          <span key={p}>
            {i > 0 ? " and " : ""}
            <code className={code}>{p}</code>
          </span>
        ))}
        . The README explains how to get one.
      </p>
    </section>
  );
}

function when(iso: string | null): string {
  return iso ? `${formatDate(iso)} ${formatTime(iso)} UTC` : "";
}

function HealthDetails({ health }: { health: ConnectionHealth }) {
  const page = health.page;
  const pageLink = page ? safeHref(page.link) : null;
  const ok = health.tokenValid && health.missingPermissions.length === 0 && !health.error;
  return (
    <dl className="mt-3 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
      <dt className="font-bold">Page</dt>
      <dd>
        {page ? (
          pageLink ? (
            <a href={pageLink} target="_blank" rel="noopener noreferrer" className={linkClass}>
              {page.name}
            </a>
          ) : (
            page.name
          )
        ) : (
          "Not readable with this token"
        )}
      </dd>
      <dt className="font-bold">Token</dt>
      <dd>
        <span className={`mr-2 inline-block rounded-full px-2 py-0.5 text-xs font-bold ${ok ? "bg-green-200 text-green-900" : "bg-red-100 text-alarm-ink"}`}>
          {ok ? "works" : health.tokenValid ? "needs attention" : "not working"}
        </span>
        {health.neverExpires ? "never expires" : health.expiresAt ? `expires ${when(health.expiresAt)}` : "expiry not revealed by Facebook"}
      </dd>
      <dt className="font-bold">Permissions</dt>
      <dd>
        {health.permissions.length > 0 ? health.permissions.join(", ") : "could not be read"}
        {health.missingPermissions.length > 0 ? <span className="block font-semibold text-alarm-ink">Missing: {health.missingPermissions.join(", ")}</span> : null}
      </dd>
      {health.error ? (
        <>
          <dt className="font-bold">Problem</dt>
          <dd className="font-semibold text-alarm-ink">
            {/* The alert is inside the <dd>: a description list holds only terms and descriptions. */}
            <div role="alert">
              {health.error.message}
              {health.error.code !== null ? <span className="block text-xs font-normal text-ink/70">Facebook code {health.error.code}{health.error.fbtraceId ? `, trace ${health.error.fbtraceId}` : ""}</span> : null}
            </div>
          </dd>
        </>
      ) : null}
    </dl>
  );
}

/** The Page connection: how to connect when it is not set up, else its health, checked on load and on demand. */
export function ConnectionPanel({ connected }: { connected: boolean }) {
  const [check, setCheck] = useState<Check>({ state: "checking" });
  // Each press of 'Check connection' asks again.
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (!connected) return;
    let stopped = false;
    const read = async () => {
      const answer = await requestJson<{ connected: boolean; health?: ConnectionHealth }>("/admin/api/facebook");
      if (stopped) return;
      if (answer.kind === "ok" && answer.body.health) setCheck({ state: "done", health: answer.body.health });
      else setCheck({ state: "error", message: answer.kind === "ok" ? "Facebook is not connected." : (answer.message ?? "The connection could not be checked.") });
    };
    void read();
    return () => {
      stopped = true;
    };
  }, [connected, round]);
  const recheck = () => {
    setCheck({ state: "checking" });
    setRound((n) => n + 1);
  };

  if (!connected) return <NotConnected />;
  return (
    <section aria-labelledby="facebook-connection" className={panelClass}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="facebook-connection" className="font-display text-xl font-extrabold">
          Facebook Page connection
        </h2>
        <button type="button" className={secondaryButtonClass} onClick={recheck} disabled={check.state === "checking"}>
          {check.state === "checking" ? <Spinner className="h-3.5 w-3.5" /> : null}
          Check connection
        </button>
      </div>
      <div aria-live="polite">
        {check.state === "checking" ? <p className="mt-3 text-sm text-ink/70">Checking the connection...</p> : null}
        {check.state === "error" ? (
          <p className="mt-3 text-sm font-semibold text-alarm-ink" role="alert">
            {check.message}
          </p>
        ) : null}
        {check.state === "done" ? <HealthDetails health={check.health} /> : null}
      </div>
    </section>
  );
}
