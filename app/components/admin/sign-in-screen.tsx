import { useState } from "react";
import { useRevalidator } from "react-router";
import { signOutAndReturn } from "~/app/lib/auth-client";
import { useHydrated } from "~/app/lib/use-hydrated";

type Mode = "sign-in" | "sign-up" | "forgot";

async function callAuth(path: string, body: unknown): Promise<{ ok: boolean; message?: string }> {
  try {
    const response = await fetch(`/api/auth${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      credentials: "same-origin",
    });
    if (response.ok) return { ok: true };
    const payload = (await response.json().catch(() => null)) as { message?: string } | null;
    return { ok: false, message: payload?.message ?? `The auth service answered ${response.status}` };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}

const TITLES: Record<Mode, string> = {
  "sign-in": "Sign in to manage your content",
  "sign-up": "Create your admin account",
  forgot: "Reset your password",
};

/** The admin sign-in screen: sign in, sign up with e-mail verification, or reset the password. */
export function SignInScreen() {
  const [mode, setMode] = useState<Mode>("sign-in");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // These forms post to the auth service from the browser: before hydration they must not submit at all.
  const hydrated = useHydrated();
  const revalidator = useRevalidator();

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setNotice(null);
    if (mode === "sign-in") {
      const result = await callAuth("/sign-in/email", { email, password });
      if (result.ok) await revalidator.revalidate();
      else setError(result.message ?? "Sign-in failed");
    } else if (mode === "sign-up") {
      const result = await callAuth("/sign-up/email", { email, password, name: email.split("@")[0], callbackURL: "/admin" });
      if (result.ok) {
        setNotice("Account created! Check your email for verification.");
        setPassword("");
      } else setError(result.message ?? "Sign-up failed");
    } else {
      const result = await callAuth("/request-password-reset", { email, redirectTo: "/reset-password" });
      if (result.ok) setNotice("If an account exists for this e-mail, a link to reset its password is on its way.");
      else setError(result.message ?? "Could not send the reset link");
    }
    setBusy(false);
  };

  const switchTo = (next: Mode) => {
    setMode(next);
    setError(null);
    setNotice(null);
  };

  const input = "w-full rounded-lg border-2 border-ink bg-white px-3 py-2 focus-visible:ring-4 focus-visible:ring-ufo/40 focus-visible:outline-none";
  return (
    <main id="main" className="flex min-h-screen items-center justify-center bg-ink p-4">
      <div className="w-full max-w-md rounded-3xl border-4 border-ink bg-paper p-8 shadow-[8px_8px_0_0_var(--color-acid)]">
        <div className="flex items-center gap-3">
          <img src="/logo.svg" alt="" className="h-10 w-10" />
          <p className="font-display text-2xl font-extrabold">
            Odd<span className="text-ufo">wire</span> <span className="text-base font-bold text-ink/60">Admin</span>
          </p>
        </div>
        <h1 className="mt-6 font-display text-2xl font-extrabold">{TITLES[mode]}</h1>
        {error ? (
          <div role="alert" className="mt-4 rounded-lg border-2 border-alarm bg-alarm/10 px-3 py-2 text-sm font-semibold text-alarm-ink">
            {error}
          </div>
        ) : null}
        {notice ? (
          <div role="status" className="mt-4 rounded-lg border-2 border-ink bg-acid px-3 py-2 text-sm font-semibold">
            {notice}
          </div>
        ) : null}
        <form method="post" onSubmit={submit} className="mt-6 space-y-4">
          <div>
            <label htmlFor="admin-email" className="block text-sm font-bold">
              Email
            </label>
            <input id="admin-email" type="email" required autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} className={input} />
          </div>
          {mode !== "forgot" ? (
            <div>
              <label htmlFor="admin-password" className="block text-sm font-bold">
                Password
              </label>
              <input
                id="admin-password"
                type="password"
                required
                autoComplete={mode === "sign-up" ? "new-password" : "current-password"}
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                className={input}
              />
            </div>
          ) : null}
          <button type="submit" disabled={busy || !hydrated} className="w-full rounded-full bg-ink py-2.5 font-bold text-acid hover:bg-ufo hover:text-white disabled:opacity-60">
            {mode === "sign-in" ? "Sign In" : mode === "sign-up" ? "Create Account" : "Send Reset Link"}
          </button>
        </form>
        <div className="mt-6 flex flex-col items-center gap-2 text-sm">
          {mode === "sign-in" ? (
            <>
              <button type="button" className="font-semibold text-ufo underline" onClick={() => switchTo("sign-up")}>
                Don&apos;t have an account? Sign up
              </button>
              <button type="button" className="font-semibold text-ink/70 underline" onClick={() => switchTo("forgot")}>
                Forgot password?
              </button>
            </>
          ) : (
            <button type="button" className="font-semibold text-ufo underline" onClick={() => switchTo("sign-in")}>
              Already have an account? Sign in
            </button>
          )}
        </div>
      </div>
    </main>
  );
}

/** What a signed-in user without the admin flag sees. */
export function AccessDenied({ email }: { email?: string }) {
  return (
    <main id="main" className="flex min-h-screen items-center justify-center bg-ink p-4">
      <div className="w-full max-w-md rounded-3xl border-4 border-ink bg-paper p-8 text-center shadow-[8px_8px_0_0_var(--color-alarm)]">
        <h1 className="font-display text-3xl font-extrabold">Access Denied</h1>
        <p className="mt-3">You don&apos;t have admin privileges to access this area. Please contact an administrator if you believe this is an error.</p>
        {email ? <p className="mt-3 text-sm text-ink/70">Signed in as {email}</p> : null}
        <div className="mt-6 flex justify-center gap-3">
          <a href="/" className="rounded-full border-2 border-ink px-4 py-2 font-bold">
            View Site
          </a>
          <button type="button" onClick={signOutAndReturn} className="rounded-full bg-ink px-4 py-2 font-bold text-acid">
            Sign Out
          </button>
        </div>
      </div>
    </main>
  );
}
