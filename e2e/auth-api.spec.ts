import { expect, test } from "@playwright/test";

test.use({ extraHTTPHeaders: { "x-forwarded-for": "192.0.2.99" } });

// The auth service is mounted on the real server at /api/auth, and never goes through the page cache.
test("the auth service answers under /api/auth, uncached", async ({ request, baseURL }) => {
  const signIn = await request.post("/api/auth/sign-in/email", {
    data: { email: "nobody@oddwire.test", password: "wrong-password" },
    headers: { origin: baseURL! },
  });
  expect(signIn.status()).toBe(401);
  expect((await signIn.json()).message).toBe("Invalid email or password");
  expect(signIn.headers()["x-cache"]).toBeUndefined();

  const signUp = await request.post("/api/auth/sign-up/email", {
    data: { email: "reader@oddwire.test", password: "long-enough-1", name: "Reader" },
    headers: { origin: baseURL! },
  });
  expect(signUp.status()).toBe(200);
  const session = await request.get("/api/auth/get-session");
  expect(session.status()).toBe(200);
  expect(session.headers()["x-cache"]).toBeUndefined();
});
