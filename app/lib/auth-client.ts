/** Signs the browser out of the auth service, then shows the admin sign-in screen. */
export async function signOutAndReturn(): Promise<void> {
  await fetch("/api/auth/sign-out", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  window.location.assign("/admin");
}
