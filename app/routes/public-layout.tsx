import { Outlet, useNavigation, type Location } from "react-router";
import { listCategories } from "~/domain/public/public-site";
import { SiteFooter } from "~/app/components/site-footer";
import { SiteHeader } from "~/app/components/site-header";
import { PlaceholderCards } from "~/app/components/states";
import type { Route } from "./+types/public-layout";

export async function loader({ context }: Route.LoaderArgs) {
  return {
    categories: await listCategories(context.publicRepos),
    contactEmail: context.config.contactEmail,
    socialUrl: context.config.socialUrl,
    siteUrl: context.config.siteUrl,
  };
}

// While a client-side navigation loads, the page says what it is waiting for.
function Pending({ location }: { location: Location }) {
  if (location.pathname === "/") return <p className="font-display text-2xl font-bold">Loading weird news...</p>;
  if (location.pathname.startsWith("/category/")) return <p className="font-display text-2xl font-bold">Loading stories...</p>;
  if (location.pathname === "/search") {
    const q = new URLSearchParams(location.search).get("q") ?? "";
    return (
      <>
        <p className="font-display text-2xl font-bold">Searching for &quot;{q}&quot;...</p>
        <PlaceholderCards count={6} />
      </>
    );
  }
  return null;
}

export default function PublicLayout({ loaderData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const pending = navigation.state === "loading" ? <Pending location={navigation.location} /> : null;
  return (
    <>
      <SiteHeader categories={loaderData.categories} />
      <main id="main" tabIndex={-1} className="mx-auto min-h-[60vh] max-w-6xl px-4 py-10 outline-none" aria-busy={pending ? true : undefined}>
        {pending ?? <Outlet />}
      </main>
      <SiteFooter contactEmail={loaderData.contactEmail} socialUrl={loaderData.socialUrl} />
    </>
  );
}
