import { data, type AppLoadContext } from "react-router";
import { z } from "zod";

/**
 * The part of a value a test gives: any member may be left out, members given keep their types
 * (a misspelt member or a wrong signature fails to compile). Functions are given whole.
 */
export type Partly<T> = T extends (...args: never[]) => unknown ? T : T extends object ? { [K in keyof T]?: Partly<T[K]> } : T;

const isPlainObject = (value: unknown): value is Record<PropertyKey, unknown> =>
  typeof value === "object" && value !== null && [Object.prototype, null].includes(Object.getPrototypeOf(value));

// Members read by promise resolution, serializers and test matchers when they look at any object:
// their absence is an answer, not a test that forgot something.
const PROBED = new Set(["then", "toJSON", "asymmetricMatch", "$$typeof", "nodeType", "constructor"]);

function strict<T extends object>(given: T, path: string): T {
  return new Proxy(given, {
    get(target, key, receiver) {
      if (typeof key === "symbol" || PROBED.has(key)) return Reflect.get(target, key, receiver);
      if (!(key in target)) throw new Error(`the test's route context has no ${path}.${key}: give it to routeContext`);
      const value: unknown = Reflect.get(target, key, receiver);
      return isPlainObject(value) ? strict(value, `${path}.${key}`) : value;
    },
  });
}

/**
 * The load context a loader or action gets, made of the parts a test gives. A part the route reaches
 * for that the test did not give fails naming it (context.repos.stories), rather than as "undefined
 * is not a function" somewhere inside the route. Spreading a context gives back its parts.
 */
export function routeContext(parts: Partly<AppLoadContext>): AppLoadContext {
  // The one narrowing of the harness: what the test left out is caught when reached, above.
  return strict({ ...UNSET_OPTIONAL_MEMBERS, ...parts }, "context") as AppLoadContext;
}

type OptionalKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? K : never }[keyof T];

// A member the context may lack is read as absent, as the server leaves it; listing each here (the
// type insists on every one) keeps the others strict.
const UNSET_OPTIONAL_MEMBERS: { [K in OptionalKeys<AppLoadContext>]: undefined } = { trustedOrigins: undefined, wholePage: undefined };

/** The arguments the router hands a loader or action for this request. */
export function routeArgs<P extends object>(request: Request, context: AppLoadContext, params: P): RouteArgs<P> {
  const url = new URL(request.url);
  return { request, url, pattern: url.pathname, params, context };
}
export type RouteArgs<P extends object = Record<string, never>> = { request: Request; url: URL; pattern: string; params: P; context: AppLoadContext };

/** What `data(body, init)` makes, as React Router's public `data` function types it. */
type DataAnswer<D> = ReturnType<typeof data<D>>;
type BodyOf<T> = T extends DataAnswer<infer D> ? D : T;

// The class of what data() returns, reached through data() itself rather than React Router's internals.
const DataAnswerClass = data(null).constructor;
const isDataAnswer = (value: unknown): value is DataAnswer<unknown> => value instanceof DataAnswerClass;

/**
 * A route's answer as the browser gets it: the status data() set (200 for a plain value) and the body.
 * A route typed as answering `unknown` (adminAction's intents answer what their domain call does) is
 * read through a schema of what the test expects, which also checks the body has that shape.
 */
export function answerOf<T>(value: T): { status: number; body: BodyOf<T> };
export function answerOf<S extends z.ZodType>(value: unknown, body: S): { status: number; body: z.output<S> };
export function answerOf(value: unknown, body?: z.ZodType): { status: number; body: unknown } {
  const answer = isDataAnswer(value) ? { status: value.init?.status ?? 200, body: value.data } : { status: 200, body: value };
  return body ? { status: answer.status, body: body.parse(answer.body) } : answer;
}

/** What an admin action answers: its toast, the fields' problems, and whatever else its screen reads. */
export const adminAnswer = z.looseObject({
  ok: z.boolean().optional(),
  toast: z.object({ title: z.string(), description: z.string().optional(), tone: z.literal("error").optional() }).optional(),
  fields: z.record(z.string(), z.string()).optional(),
});

/** What a loader or action refused with when it threw data(...) or a Response; null when it answered. */
export async function refusalOf(answer: Promise<unknown>): Promise<{ status: number; headers: Headers; body: unknown } | null> {
  try {
    await answer;
    return null;
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, headers: thrown.headers, body: await thrown.text() };
    if (isDataAnswer(thrown)) return { status: thrown.init?.status ?? 200, headers: new Headers(thrown.init?.headers), body: thrown.data };
    throw thrown;
  }
}
