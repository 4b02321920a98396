import { z } from "zod";

// The admin lists' filters live in the address (?status=&q=&source=...), so a reload or a shared link
// keeps them. Each list states its filters once, with one of these fields per parameter; the route's
// loader reads them with it, and the filter bar writes them back with it. Nothing else parses a list's query.

/** One filter: its parameter's name and its schema, which falls back to the default on anything it does not understand. */
export type ListField<T> = { param: string; schema: z.ZodType<T, unknown> };

/** Text, trimmed and cut at `max` characters; blank when absent. */
export function textFilter(param: string, max = 500): ListField<string> {
  return { param, schema: z.string().catch("").transform((text) => text.trim().slice(0, max)) };
}

/** One of `options`, else `fallback`. */
export function choiceFilter<const T extends string>(param: string, options: readonly T[], fallback: NoInfer<T>): ListField<T> {
  return { param, schema: z.enum(options as readonly [T, ...T[]]).catch(fallback) };
}

const positiveId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** A row id, else null (all rows). */
export function idFilter(param: string): ListField<number | null> {
  return { param, schema: z.preprocess((value) => (value === null || value === undefined || value === "" ? null : value), positiveId.nullable()).catch(null) };
}

/** A row id, "none" (the rows without one), else null (all rows). */
export function ownerFilter(param: string): ListField<number | "none" | null> {
  return { param, schema: z.union([z.literal("none"), idFilter(param).schema]).catch(null) };
}

/** A page number from 1, else 1. */
export function pageFilter(param = "page"): ListField<number> {
  return { param, schema: positiveId.catch(1) };
}

/** A switch that is on as `1`, else off. */
export function flagFilter(param: string): ListField<boolean> {
  return { param, schema: z.preprocess((value) => value === "1", z.boolean()).catch(false) };
}

type Fields = Record<string, ListField<unknown>>;
type QueryOf<F extends Fields> = { [K in keyof F]: F[K] extends ListField<infer T> ? T : never };

/** What a list's query does: read it from an address, write it back as one, and name each combination. */
export type ListQuery<Q> = {
  read: (params: URLSearchParams) => Q;
  /** The address of `query` with `change` applied, defaults left out: "?" for the defaults. */
  href: (query: Q, change?: Partial<Q>) => string;
  defaults: Q;
  /** The address parameter of a filter. */
  param: (key: keyof Q & string) => string;
  /** One filter read from its text (a select's value). */
  field: <K extends keyof Q & string>(key: K, text: string) => Q[K];
};

/** A list's filters, stated once; `resetPage` names the page field that goes back to its default whenever another filter changes. */
export function listQuery<F extends Fields>(fields: F, options: { resetPage?: keyof F } = {}): ListQuery<QueryOf<F>> {
  const keys = Object.keys(fields) as (keyof F & string)[];
  const read = (params: URLSearchParams) =>
    Object.fromEntries(keys.map((key) => [key, fields[key]!.schema.parse(params.get(fields[key]!.param) ?? undefined)])) as QueryOf<F>;
  const defaults = read(new URLSearchParams());
  const text = (value: unknown) => (value === null || value === false ? "" : value === true ? "1" : String(value));
  const href = (query: QueryOf<F>, change: Partial<QueryOf<F>> = {}) => {
    const reset = options.resetPage && !(options.resetPage in change) ? { [options.resetPage]: defaults[options.resetPage] } : {};
    const next = { ...query, ...reset, ...change };
    const params = new URLSearchParams();
    for (const key of keys) {
      const value = text(next[key]);
      if (value !== text(defaults[key])) params.set(fields[key]!.param, value);
    }
    return `?${params}`;
  };
  const param = (key: keyof F & string) => fields[key]!.param;
  const field = <K extends keyof F & string>(key: K, value: string) => fields[key]!.schema.parse(value) as QueryOf<F>[K];
  return { read, href, defaults, param, field };
}
