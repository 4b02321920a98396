/**
 * Runs `work` over every item with at most `limit` at a time. It always waits for every item: one
 * item's failure neither stops the others nor settles the whole early; the failures, if any, reject
 * it afterwards (the error itself for one, an AggregateError for several). Callers that must never
 * reject handle each item's errors inside `work`.
 */
export async function eachLimit<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const errors: unknown[] = [];
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      try {
        await work(items[index] as T, index);
      } catch (error) {
        errors.push(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, `${errors.length} of ${items.length} items failed`);
}
