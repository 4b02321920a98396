import { getDashboardStats, RECENT_DAYS } from "~/domain/dashboard/dashboard";
import { requireAdmin } from "~/app/lib/admin.server";
import { RssIngestionPanel } from "~/app/components/admin/sources/rss-ingestion-panel";
import type { Route } from "./+types/dashboard";

export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  return { stats: await getDashboardStats(args.context.repos) };
}

function Card({ title, value, caption }: { title: string; value: number; caption: React.ReactNode }) {
  return (
    <section className="rounded-2xl border-2 border-ink bg-white p-5 shadow-[4px_4px_0_0_var(--color-ink)]">
      <h2 className="text-sm font-bold tracking-wide text-ink/70 uppercase">{title}</h2>
      <p className="mt-2 font-display text-4xl font-extrabold">{value.toLocaleString("en-US")}</p>
      <p className="mt-1 text-sm text-ink/70">{caption}</p>
    </section>
  );
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { stats } = loaderData;
  return (
    <>
      <h1 className="font-display text-4xl font-extrabold">Dashboard</h1>
      <div className="mt-6 grid gap-5 sm:grid-cols-2 xl:grid-cols-4">
        <Card
          title="Total Stories"
          value={stats.total}
          caption={
            <>
              {stats.published} published, {stats.pending} pending · {stats.addedLastWeek} in the last {RECENT_DAYS} days
            </>
          }
        />
        <Card title="Published Stories" value={stats.published} caption="Live on the website" />
        <Card title="Pending Review" value={stats.pending} caption="Awaiting approval" />
        <Card title="Active Sources" value={stats.activeSources} caption="RSS feeds monitored" />
      </div>
      <div className="mt-8">
        <RssIngestionPanel />
      </div>
    </>
  );
}
