import type { Repos } from "~/db/repos";
import { dateOf, systemClock, type Clock } from "~/lib/clock";
import type { ConnectionHealth, GraphClient } from "~/integrations/facebook/graph-client";
import { missingPermissionMessage } from "~/integrations/facebook/graph-error";

/**
 * What the panel says of the token:
 * - works: Facebook accepted it and it holds what posting needs (or a post just went out with it);
 * - needs-attention: accepted, but something is wrong (a missing permission, another Page's token);
 * - not-working: Facebook refused it, in so many words;
 * - unknown: Facebook gave no account of it, and no recent post vouches for it.
 */
export type TokenState = "works" | "needs-attention" | "not-working" | "unknown";

export type ConnectionStatus = {
  health: ConnectionHealth;
  token: TokenState;
  /** The token's state in one sentence: the panel's live region announces it when it changes. */
  summary: string;
  /** When the newest post went out (ISO), or null. */
  lastPostedAt: string | null;
  checkedAt: string;
};

/**
 * How long a post that went out vouches for a token whose details Facebook did not give: long enough
 * for the post an editor just made, short enough that a week-old post says nothing of today.
 */
export const POST_VOUCHES_FOR_MS = 24 * 60 * 60_000;

export const TOKEN_TEXT = {
  works: "The token works.",
  worksNoDetails: "The token works, but Facebook did not give its details: its expiry and permissions could not be read.",
  worksByPost: "The token works: a post went out with it in the last day, though Facebook did not give its details.",
  unknown: "The token's details could not be read: Facebook did not say whether it is valid or which permissions it holds.",
  notWorking: (reason: string) => `The token is not working: ${reason}`,
  needsAttention: (reason: string) => `The token works but needs attention: ${reason}`,
} as const;

/** The permission a post that went out proves the token holds. */
const POSTING_PERMISSION = "pages_manage_posts";

/**
 * The check as a recent post leaves it: the token worked, so it is not reported as lacking the
 * permission to post. Only Facebook refusing the token now (an auth error) outweighs the post.
 */
function vouchedFor(health: ConnectionHealth): ConnectionHealth {
  if (!health.missingPermissions.includes(POSTING_PERMISSION)) return health;
  const missingPermissions = health.missingPermissions.filter((name) => name !== POSTING_PERMISSION);
  const fromMissing = health.error?.kind === "permission" && health.error.message === missingPermissionMessage(health.missingPermissions);
  const error = !fromMissing ? health.error : missingPermissions.length > 0 ? { ...health.error!, message: missingPermissionMessage(missingPermissions) } : null;
  return { ...health, missingPermissions, error };
}

/** The token's state from the check and the newest post: a post that went out lately proves the token worked. */
export function tokenState(
  checked: ConnectionHealth,
  lastPostedAt: Date | null,
  checkedAt: Date,
): { health: ConnectionHealth; token: TokenState; summary: string } {
  const refused = checked.tokenValid === false || checked.error?.kind === "auth";
  const vouched = !refused && lastPostedAt !== null && checkedAt.getTime() - lastPostedAt.getTime() <= POST_VOUCHES_FOR_MS;
  const health = vouched ? vouchedFor(checked) : checked;
  const reason = health.error?.message ?? "";
  if (refused) return { health, token: "not-working", summary: TOKEN_TEXT.notWorking(reason || "Facebook refused it.") };
  if (health.tokenValid === null && !vouched) return { health, token: "unknown", summary: TOKEN_TEXT.unknown };
  // A passing failure (Facebook busy or out of reach) is no fault of the token's: shown, not a verdict.
  if (health.error && !health.error.retryable) return { health, token: "needs-attention", summary: TOKEN_TEXT.needsAttention(reason) };
  const summary = health.tokenValid === null ? TOKEN_TEXT.worksByPost : health.permissions === null ? TOKEN_TEXT.worksNoDetails : TOKEN_TEXT.works;
  return { health, token: "works", summary };
}

/** Checks the Page connection now and says what it means for posting, with the newest post as evidence. */
export async function connectionStatus(deps: { graph: Pick<GraphClient, "checkConnection">; repos: Pick<Repos, "social">; now?: Clock }): Promise<ConnectionStatus> {
  const clock = deps.now ?? systemClock;
  const [health, lastPostedAt] = await Promise.all([deps.graph.checkConnection(), deps.repos.social.lastPostedAt()]);
  const checkedAt = dateOf(clock);
  return { ...tokenState(health, lastPostedAt, checkedAt), lastPostedAt: lastPostedAt?.toISOString() ?? null, checkedAt: checkedAt.toISOString() };
}
