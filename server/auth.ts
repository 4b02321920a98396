import { randomUUID } from "node:crypto";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { createAuthMiddleware } from "better-auth/api";
import type { Db } from "~/db/client";
import { accounts, sessions, users, verifications } from "~/db/schema";
import type { Mailer } from "~/integrations/mail/mailer";
import type { Logger } from "./logger";

/**
 * The client address the auth service rate-limits by. The web server sets it from the socket (or a
 * trusted local proxy's X-Forwarded-For) and overwrites any value a client sends.
 */
export const CLIENT_IP_HEADER = "x-oddwire-client-ip";

/** Sign-in and sign-up limits per client address (better-auth's rate limiter, per process). */
export const AUTH_RATE_LIMITS = {
  "/sign-in/email": { window: 60, max: 5 },
  "/sign-up/email": { window: 60, max: 3 },
  "/request-password-reset": { window: 60, max: 3 },
} as const;

/**
 * A JSON answer without session tokens: the session cookie (HttpOnly) already carries the caller's,
 * and a script that can read the answer must not learn it (nor another session's, listed).
 */
export function withoutSessionTokens(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSessionTokens);
  if (value === null || typeof value !== "object") return value;
  const { token: _token, ...rest } = value as Record<string, unknown>;
  const session = rest.session;
  if (session !== null && typeof session === "object" && !Array.isArray(session)) {
    const { token: _sessionToken, ...sessionRest } = session as Record<string, unknown>;
    rest.session = sessionRest;
  }
  return rest;
}

/**
 * E-mail and password accounts with verification by e-mail, sessions in the database, HttpOnly
 * SameSite cookies (Secure on https), served under /api/auth. A password change keeps the session
 * that made it and ends every other session of the account; a reset ends them all.
 */
export function createAuth(options: {
  db: Db;
  secret: string;
  siteUrl: string;
  /** The origins sign-in, sign-up and every other change are accepted from; SITE_URL's alone by default. */
  trustedOrigins?: string[];
  mailer: Mailer;
  logger: Logger;
  /** Off only in tests that sign in many times. */
  rateLimit?: boolean;
  /** The demo without SMTP: each verification link is also written to the log, for a local user to follow. */
  logVerificationLinks?: boolean;
}) {
  const { mailer, logger } = options;
  return betterAuth({
    appName: "Oddwire",
    baseURL: options.siteUrl,
    basePath: "/api/auth",
    secret: options.secret,
    trustedOrigins: options.trustedOrigins ?? [new URL(options.siteUrl).origin],
    database: drizzleAdapter(options.db, {
      provider: "pg",
      usePlural: true,
      schema: { users, sessions, accounts, verifications },
    }),
    user: {
      additionalFields: { isAdmin: { type: "boolean", defaultValue: false, input: false } },
    },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, url }) => {
        await mailer.send({
          to: user.email,
          subject: "Reset your Oddwire password",
          text: `Someone asked to reset the password of your Oddwire account.\n\nChoose a new password here: ${url}\n\nIf it was not you, ignore this message.`,
        });
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      sendVerificationEmail: async ({ user, url }) => {
        await mailer.send({
          to: user.email,
          subject: "Verify your e-mail for Oddwire",
          text: `Welcome to Oddwire.\n\nConfirm your e-mail address by opening this link: ${url}\n\nIf you did not sign up, ignore this message.`,
        });
        if (options.logVerificationLinks) logger.info({ to: user.email, mailer: mailer.kind }, `verification e-mail sent; its link: ${url}`);
        else logger.info({ to: user.email, mailer: mailer.kind }, "verification e-mail sent");
      },
    },
    hooks: {
      // Whatever the caller asks, a new password ends the account's other sessions.
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path !== "/change-password") return;
        return { context: { body: { ...(ctx.body as Record<string, unknown>), revokeOtherSessions: true } } };
      }),
      after: createAuthMiddleware(async (ctx) => {
        const returned: unknown = ctx.context.returned;
        if (!ctx.request || returned === null || typeof returned !== "object" || returned instanceof Response || returned instanceof Error) return;
        return ctx.json(withoutSessionTokens(returned) as Record<string, unknown>);
      }),
    },
    rateLimit: {
      enabled: options.rateLimit ?? true,
      window: 60,
      max: 100,
      customRules: AUTH_RATE_LIMITS,
    },
    advanced: {
      useSecureCookies: options.siteUrl.startsWith("https://"),
      // better-auth skips its origin check when NODE_ENV is "test"; ours never does.
      disableOriginCheck: false,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
      database: { generateId: () => randomUUID() },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    // The auth service's own messages (a refused origin, a failed mail) go to our structured log.
    logger: {
      level: "warn",
      log: (level, message, ...args) => {
        const err = args.find((arg) => arg instanceof Error);
        logger[level === "debug" ? "debug" : level]({ service: "auth", ...(err ? { err } : {}) }, message);
      },
    },
    telemetry: { enabled: false },
  });
}
export type Auth = ReturnType<typeof createAuth>;
