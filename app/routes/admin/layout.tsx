import { isRouteErrorResponse, Outlet } from "react-router";
import { AdminNav } from "~/app/components/admin/admin-nav";
import { AdminToaster } from "~/app/components/admin/admin-toaster";
import { AccessDenied, SignInScreen } from "~/app/components/admin/sign-in-screen";
import { WrongAddress } from "~/app/components/admin/wrong-address";
import { requireAdmin, type GateRefusal } from "~/app/lib/admin.server";
import { adminMeta } from "~/app/lib/meta";
import { useHydrated } from "~/app/lib/use-hydrated";
import type { Route } from "./+types/layout";
import { z } from "zod";

// The back office checks its forms with zod in the browser too. Unless told not to, zod compiles its
// object checks with `new Function`, and even its probe for that is reported as a violation of the
// site's Content-Security-Policy (no 'unsafe-eval'); the compiled checks are not needed for forms.
if (typeof document !== "undefined") z.config({ jitless: true });

// Each screen titles itself; this one names the gate's own screens when it turns the visitor away.
export function meta({ error }: Route.MetaArgs): Route.MetaDescriptors {
  if (isRouteErrorResponse(error) && error.status === 401) return adminMeta("Sign in");
  if (isRouteErrorResponse(error) && error.status === 403) return adminMeta("Access denied");
  return adminMeta();
}

export async function loader(args: Route.LoaderArgs) {
  return { user: await requireAdmin(args) };
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const hydrated = useHydrated();
  return (
    <div className="min-h-screen lg:grid lg:grid-cols-[15rem_1fr]">
      <a href="#main" className="sr-only z-50 rounded bg-acid px-4 py-2 font-bold focus:not-sr-only focus:fixed focus:top-2 focus:left-2">
        Skip to content
      </a>
      <AdminNav email={loaderData.user.email} hydrated={hydrated} />
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
