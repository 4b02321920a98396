import { randomUUID } from "node:crypto";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { toNodeHandler } from "better-auth/node";
import type { Db } from "~/db/client";
import { rateLimitsRepo, type RateLimitRule } from "~/db/repos/rate-limits.repo";
import { accounts, sessions, users, verifications } from "~/db/schema";
import type { Mailer } from "~/integrations/mail/mailer";
import type { Logger } from "../logger";
import { bufferedBody } from "./body-limit";
import { clientAddress, type ProxyTrust } from "./client-address";
import type { NodeHandler } from "./node-handler";

/**
 * The client address the auth service rate-limits by. The web server sets it from the socket (or a
 * trusted local proxy's X-Forwarded-For) and overwrites any value a client sends.
 */
export const CLIENT_IP_HEADER = "x-oddwire-client-ip";

/**
 * Limits per client address, counted in the database (every process shares them and a restart
 * forgets nothing). Every other auth path has a generous 100 a minute per address.
 */
export const AUTH_RATE_LIMITS: Record<string, RateLimitRule> = {
  "/sign-in/email": { window: 60, max: 5 },
  "/sign-up/email": { window: 60, max: 3 },
  "/request-password-reset": { window: 60, max: 3 },
  "/send-verification-email": { window: 60, max: 3 },
};

/**
 * Limits per account, whichever addresses the requests come from: sign-in attempts (forgotten once
 * the account signs in) and the mails an account can be sent.
 */
export const ACCOUNT_RATE_LIMITS: Record<string, RateLimitRule & { what: string }> = {
  "/sign-in/email": { window: 15 * 60, max: 10, what: "sign-in attempts for this account" },
  "/request-password-reset": { window: 60 * 60, max: 3, what: "password reset e-mails for this account" },
  "/send-verification-email": { window: 60 * 60, max: 3, what: "verification e-mails for this account" },
};

/** "3 minutes", "45 seconds": how long to wait, for the message. */
export function waitText(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

function tooManyRequests(message: string, retryAfter: number): APIError {
  return new APIError("TOO_MANY_REQUESTS", { code: "TOO_MANY_REQUESTS", message }, { "Retry-After": String(retryAfter) });
}

const accountKey = (path: string, email: string) => `account:${path}:${email.trim().toLowerCase()}`;

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
  /** How often old counters are pruned, at most (in milliseconds); once an hour by default. */
  pruneEveryMs?: number;
  /** The demo without SMTP: each verification link is also written to the log, for a local user to follow. */
  logVerificationLinks?: boolean;
}) {
  const { mailer, logger } = options;
  const limits = rateLimitsRepo(options.db);
  const limiting = options.rateLimit ?? true;
  // Counters whose window ended a day ago are deleted now and then, by whichever request comes.
  const pruneEveryMs = options.pruneEveryMs ?? 60 * 60_000;
  let lastPruned = 0;
  const pruneNowAndThen = () => {
    if (Date.now() - lastPruned < pruneEveryMs) return;
    lastPruned = Date.now();
    void limits.prune(86_400).catch((error: unknown) => logger.warn({ err: error }, "could not prune the sign-in limit counters"));
  };
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
      before: createAuthMiddleware(async (ctx) => {
        // Requests over HTTP (not the server's own calls) are limited per address, then per account.
        if (limiting && ctx.request) {
          pruneNowAndThen();
          const perAddress = AUTH_RATE_LIMITS[ctx.path];
          if (perAddress) {
            const address = ctx.request.headers.get(CLIENT_IP_HEADER) ?? "unknown";
            const decision = await limits.consume(`ip:${ctx.path}:${address}`, perAddress);
            if (!decision.allowed) {
              const wait = decision.retryAfter ?? perAddress.window;
              throw tooManyRequests(`Too many attempts from your address. Please wait ${waitText(wait)} and try again.`, wait);
            }
          }
          const perAccount = ACCOUNT_RATE_LIMITS[ctx.path];
          const email = (ctx.body as { email?: unknown } | undefined)?.email;
          if (perAccount && typeof email === "string" && email.trim() !== "") {
            const decision = await limits.consume(accountKey(ctx.path, email), perAccount);
            if (!decision.allowed) {
              const wait = decision.retryAfter ?? perAccount.window;
              logger.warn({ path: ctx.path }, "an account reached its limit");
              throw tooManyRequests(`Too many ${perAccount.what}. Please wait ${waitText(wait)} and try again.`, wait);
            }
          }
        }
        // Whatever the caller asks, a new password ends the account's other sessions.
        if (ctx.path !== "/change-password") return;
        return { context: { body: { ...(ctx.body as Record<string, unknown>), revokeOtherSessions: true } } };
      }),
      after: createAuthMiddleware(async (ctx) => {
        const returned: unknown = ctx.context.returned;
        // A successful sign-in forgets the account's earlier failed attempts.
        if (limiting && ctx.request && ctx.path === "/sign-in/email" && !(returned instanceof Error)) {
          const email = (ctx.body as { email?: unknown } | undefined)?.email;
          if (typeof email === "string") await limits.clear(accountKey(ctx.path, email));
        }
        if (!ctx.request || returned === null || typeof returned !== "object" || returned instanceof Response || returned instanceof Error) return;
        return ctx.json(withoutSessionTokens(returned) as Record<string, unknown>);
      }),
    },
    // The generous default for every other path, in the same database counters; the paths limited
    // above are left to the hook, which answers with a clear message.
    rateLimit: {
      enabled: limiting,
      window: 60,
      max: 100,
      customRules: Object.fromEntries(Object.keys(AUTH_RATE_LIMITS).map((path) => [path, false])),
      customStorage: { consume: (key, rule) => limits.consume(`auth:${key}`, rule) },
    },
    advanced: {
      useSecureCookies: options.siteUrl.startsWith("https://"),
      // better-auth skips its origin check when NODE_ENV is "test"; ours never does.
      disableOriginCheck: false,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
      database: { generateId: () => randomUUID() },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    // A refused request (a wrong password, a limit) is the answer, not a fault: only faults are errors.
    onAPIError: {
      onError: (error) => {
        const status = error instanceof APIError ? error.status : undefined;
        if (status !== undefined && status !== "INTERNAL_SERVER_ERROR") logger.debug({ service: "auth", status, message: error instanceof Error ? error.message : undefined }, "auth request refused");
        else logger.error({ service: "auth", err: error }, "the auth service failed");
      },
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

/**
 * The handler of /api/auth/*: the auth service, told the client's address for its limits (overwriting
 * any value the client sent) and given the body the server read already, as text.
 */
export function authRoute(auth: Auth, trust: ProxyTrust): NodeHandler {
  const handler = toNodeHandler(auth);
  return (req, res) => {
    req.headers[CLIENT_IP_HEADER] = clientAddress(req, trust);
    const body = bufferedBody(req);
    if (body) (req as { body?: unknown }).body = body.toString("utf8");
    return handler(req, res);
  };
}
