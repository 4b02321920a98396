import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { useHydrated } from "~/app/lib/use-hydrated";
import type { Route } from "./+types/reset-password";

export function meta(): Route.MetaDescriptors {
  return [{ title: "Reset your password | Oddwire" }, { name: "robots", content: "noindex" }];
}

/** Where the reset link of a 'Forgot password?' e-mail lands: choose a new password. */
export default function ResetPassword() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const [password, setPassword] = useState("");
  const hydrated = useHydrated();
  const [state, setState] = useState<{ status: "idle" | "busy" | "done" } | { status: "error"; message: string }>({ status: "idle" });

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setState({ status: "busy" });
    const response = await fetch("/api/auth/reset-password", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ newPassword: password, token }),
    }).catch((error: Error) => ({ ok: false, json: async () => ({ message: error.message }) }) as const);
    if (response.ok) setState({ status: "done" });
    else {
      const payload = (await response.json().catch(() => ({}))) as { message?: string };
      setState({ status: "error", message: payload.message ?? "The password could not be reset" });
    }
  };

  return (
    <main id="main" className="flex min-h-screen items-center justify-center bg-ink p-4">
      <div className="w-full max-w-md rounded-3xl border-4 border-ink bg-paper p-8 shadow-[8px_8px_0_0_var(--color-acid)]">
        <h1 className="font-display text-2xl font-extrabold">Choose a new password</h1>
        {params.get("error") || !token ? (
          <p role="alert" className="mt-4 rounded-lg border-2 border-alarm bg-alarm/10 px-3 py-2 text-sm font-semibold text-alarm-ink">
            This reset link is invalid or has expired. Ask for a new one from the sign-in screen.
          </p>
        ) : null}
        {state.status === "error" ? (
          <p role="alert" className="mt-4 rounded-lg border-2 border-alarm bg-alarm/10 px-3 py-2 text-sm font-semibold text-alarm-ink">
            {state.message}
          </p>
        ) : null}
        {state.status === "done" ? (
          <p role="status" className="mt-4 rounded-lg border-2 border-ink bg-acid px-3 py-2 text-sm font-semibold">
            Your password has been changed. <Link to="/admin" className="underline">Sign in</Link>
          </p>
        ) : (
          <form method="post" onSubmit={submit} className="mt-6 space-y-4">
            <div>
              <label htmlFor="new-password" className="block text-sm font-bold">
                New password
              </label>
              <input
                id="new-password"
                type="password"
                required
                minLength={8}
                autoComplete="new-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                className="w-full rounded-lg border-2 border-ink bg-white px-3 py-2"
              />
            </div>
            <button type="submit" disabled={state.status === "busy" || !token || !hydrated} className="w-full rounded-full bg-ink py-2.5 font-bold text-acid disabled:opacity-60">
              Change Password
            </button>
          </form>
        )}
      </div>
    </main>
  );
}
