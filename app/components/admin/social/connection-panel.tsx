import { useEffect, useState } from "react";
import { requestJson } from "~/app/components/admin/admin-fetch";
import { Spinner } from "~/app/components/admin/sources/spinner";
import { linkClass, panelClass, secondaryButtonClass, safeHref } from "~/app/components/admin/sources/ui";
import { formatDate, formatTime } from "~/app/lib/format";
import type { ConnectionStatus, TokenState } from "~/domain/social/connection-status";
import type { ConnectionHealth } from "~/integrations/facebook/graph-client";
import { NEEDED_PERMISSIONS } from "./texts";


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

const BADGE: Record<TokenState, { text: string; className: string }> = {
  works: { text: "works", className: "bg-green-200 text-green-900" },
  "needs-attention": { text: "needs attention", className: "bg-yellow-200 text-yellow-950" },
  "not-working": { text: "not working", className: "bg-red-100 text-alarm-ink" },
  unknown: { text: "details not given", className: "bg-ink/10 text-ink" },
};

function expiryText(health: ConnectionHealth): string {
  if (health.neverExpires) return "never expires";
  if (health.expiresAt) return `expires ${when(health.expiresAt)}`;
  return "expiry not given by Facebook";
}

function HealthDetails({ status }: { status: ConnectionStatus }) {
  const { health } = status;
  const page = health.page;
  const pageLink = page ? safeHref(page.link) : null;
  const badge = BADGE[status.token];
  const error = health.error;
  // The sentence over the details may already give the reason: it is not said twice.
  const said = error !== null && status.summary.includes(error.message);
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
        <span className={`mr-2 inline-block rounded-full px-2 py-0.5 text-xs font-bold ${badge.className}`}>{badge.text}</span>
        {expiryText(health)}
      </dd>
      <dt className="font-bold">Permissions</dt>
      <dd>
        {health.permissions ? health.permissions.join(", ") : "not given by Facebook"}
        {health.missingPermissions.length > 0 ? <span className="block font-semibold text-alarm-ink">Missing: {health.missingPermissions.join(", ")}</span> : null}
      </dd>
      <dt className="font-bold">Last post</dt>
      <dd>{status.lastPostedAt ? when(status.lastPostedAt) : "none yet"}</dd>
      {error && !said ? (
        <>
          <dt className="font-bold">Problem</dt>
          <dd className="font-semibold text-alarm-ink">{error.message}</dd>
        </>
      ) : null}
      {error && error.code !== null ? (
        <>
          <dt className="font-bold">Reference</dt>
          <dd>
            Facebook code {error.code}
            {error.fbtraceId ? `, trace ${error.fbtraceId}` : ""}
          </dd>
        </>
      ) : null}
      <dt className="font-bold">Checked</dt>
      <dd>{when(status.checkedAt)}</dd>
    </dl>
  );
}

/** The last check's answer, and which request (press of the button, post that went out) it answered. */
type Check = { status: ConnectionStatus | null; failure: string | null; answered: string | null };

/**
 * The Page connection: how to connect when it is not set up, else its status, checked on load, on
 * demand and after each post that went out (`postedCount` changes). One live region says the token's
 * state in a sentence; it changes, and so is announced, only when the state does: checking again and
 * finding the same says nothing.
 */
export function ConnectionPanel({ connected, postedCount = 0 }: { connected: boolean; postedCount?: number }) {
  const [check, setCheck] = useState<Check>({ status: null, failure: null, answered: null });
  // Each press of 'Check connection' asks again.
  const [round, setRound] = useState(0);
  const request = `${round}-${postedCount}`;
  const checking = check.answered !== request;
  useEffect(() => {
    if (!connected) return;
    let stopped = false;
    const read = async () => {
      const answer = await requestJson<{ connected: boolean; status?: ConnectionStatus }>("/admin/api/facebook");
      if (stopped) return;
      if (answer.kind === "ok" && answer.body.status) setCheck({ status: answer.body.status, failure: null, answered: request });
      else {
        const failure = answer.kind === "ok" ? "Facebook is not connected." : (answer.message ?? "The connection could not be checked.");
        setCheck((prev) => ({ ...prev, failure, answered: request }));
      }
    };
    void read();
    return () => {
      stopped = true;
    };
  }, [connected, request]);

  if (!connected) return <NotConnected />;
  const announcement = check.failure ? `The connection could not be checked: ${check.failure}` : (check.status?.summary ?? "");
  const alarming = check.failure !== null || (check.status !== null && check.status.token !== "works");
  return (
    <section aria-labelledby="facebook-connection" aria-busy={checking} className={panelClass}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="facebook-connection" className="font-display text-xl font-extrabold">
          Facebook Page connection
        </h2>
        <button type="button" className={secondaryButtonClass} onClick={() => setRound((n) => n + 1)} disabled={checking}>
          {checking ? <Spinner className="h-3.5 w-3.5" /> : null}
          Check connection
        </button>
      </div>
      {check.status === null && check.failure === null ? <p className="mt-3 text-sm text-ink/70">Checking the connection...</p> : null}
      {/* Its text is the state alone (no times), so a check that finds the same changes nothing here. */}
      <div role="status">{announcement ? <p className={`mt-3 text-sm font-semibold ${alarming ? "text-alarm-ink" : "text-green-900"}`}>{announcement}</p> : null}</div>
      {check.status ? <HealthDetails status={check.status} /> : null}
    </section>
  );
}
