import { isRouteErrorResponse, Link, NavLink, Outlet } from "react-router";
import { AdminToaster } from "~/app/components/admin/admin-toaster";
import { AccessDenied, SignInScreen } from "~/app/components/admin/sign-in-screen";
import { WrongAddress } from "~/app/components/admin/wrong-address";
import { requireAdmin, type GateRefusal } from "~/app/lib/admin.server";
import { signOutAndReturn } from "~/app/lib/auth-client";
import { adminMeta } from "~/app/lib/meta";
import { useHydrated } from "~/app/lib/use-hydrated";
import type { Route } from "./+types/layout";

// Each screen titles itself; this one names the gate's own screens when it turns the visitor away.
export function meta({ error }: Route.MetaArgs): Route.MetaDescriptors {
  if (isRouteErrorResponse(error) && error.status === 401) return adminMeta("Sign in");
  if (isRouteErrorResponse(error) && error.status === 403) return adminMeta("Access denied");
  return adminMeta();
}

export async function loader(args: Route.LoaderArgs) {
  return { user: await requireAdmin(args) };
}

export const ADMIN_NAV = [
  { to: "/admin", label: "Dashboard" },
  { to: "/admin/stories", label: "Stories" },
  { to: "/admin/categories", label: "Categories" },
  { to: "/admin/sources", label: "Sources" },
  { to: "/admin/url-que", label: "URL Que" },
  { to: "/admin/social", label: "Social Media" },
  { to: "/admin/users", label: "Users" },
] as const;

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const hydrated = useHydrated();
  return (
    <div className="min-h-screen lg:grid lg:grid-cols-[15rem_1fr]">
      <a href="#main" className="sr-only z-50 rounded bg-acid px-4 py-2 font-bold focus:not-sr-only focus:fixed focus:top-2 focus:left-2">
        Skip to content
      </a>
      <aside className="bg-ink text-paper lg:min-h-screen">
        <div className="flex items-center gap-2 px-5 py-5">
          <img src="/logo.svg" alt="" className="h-9 w-9" />
          <span className="font-display text-xl font-extrabold">
            Odd<span className="text-acid">wire</span> <span className="text-sm text-paper/60">Admin</span>
          </span>
        </div>
        <nav aria-label="Admin">
          <ul className="flex gap-1 overflow-x-auto px-3 pb-3 lg:flex-col lg:overflow-visible">
            {ADMIN_NAV.map((item) => (
              <li key={item.to} className="shrink-0">
                <NavLink
                  to={item.to}
                  end
                  className={({ isActive }) =>
                    `block rounded-lg px-3 py-2 text-sm font-bold ${isActive ? "bg-acid text-ink" : "text-paper/85 hover:bg-paper/10"}`
                  }
                >
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="flex flex-wrap items-center gap-2 px-3 pb-5 lg:flex-col lg:items-stretch">
          <Link to="/" target="_blank" rel="noopener noreferrer" className="rounded-lg px-3 py-2 text-sm font-bold text-paper/85 hover:bg-paper/10">
            View Site<span className="sr-only"> (opens in a new tab)</span>
          </Link>
          <button type="button" disabled={!hydrated} onClick={signOutAndReturn} className="rounded-lg px-3 py-2 text-left text-sm font-bold text-paper/85 hover:bg-paper/10">
            Sign Out
          </button>
          <p className="px-3 text-xs text-paper/50">{loaderData.user.email}</p>
        </div>
      </aside>
      <main id="main" tabIndex={-1} className="p-6 outline-none lg:p-10">
        {/* The back office's controls act through JavaScript: until it runs, they are disabled rather than lost. */}
        <fieldset disabled={!hydrated} className="contents">
          <Outlet />
        </fieldset>
      </main>
      <AdminToaster />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error)) {
    const refusal = error.data as GateRefusal | undefined;
    if (error.status === 401) return <SignInScreen />;
    if (error.status === 403 && refusal?.gate === "not-admin") return <AccessDenied email={refusal.email} />;
    if (error.status === 403 && refusal?.gate === "foreign-origin") return <WrongAddress message={refusal.error} siteOrigin={refusal.siteOrigin} />;
    if (error.status === 403) return <AccessDenied />;
  }
  throw error;
}
