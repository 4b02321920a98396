import { randomUUID } from "node:crypto";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
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
 * E-mail and password accounts with verification by e-mail, sessions in the database, HttpOnly
 * SameSite cookies (Secure on https), served under /api/auth.
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
        logger.info({ to: user.email, mailer: mailer.kind }, "verification e-mail sent");
      },
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
