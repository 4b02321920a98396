import { expect, request, test as setup } from "@playwright/test";
import { ADMIN } from "./fixtures";
import { slots } from "./slots";

// The fixtures' admin signs in once on each worker's server, for every journey that acts as the
// admin; the journeys that test signing in, signing out or a session ending sign in themselves.
setup("the admin signs in once on every worker's server", async () => {
  for (const slot of slots) {
    const api = await request.newContext({ baseURL: slot.url });
    const signIn = await api.post("/api/auth/sign-in/email", { data: { email: ADMIN.email, password: ADMIN.password }, headers: { origin: slot.url } });
    expect(signIn.status(), `sign-in on ${slot.url}`).toBe(200);
    await api.storageState({ path: slot.adminSession });
    await api.dispose();
  }
});
