/** A category as the back office offers it in a select. */
export type CategoryOption = { id: number; name: string };

/** One <option> per category, by id: the back office's every category select lists them so. */
export function CategoryOptions({ categories }: { categories: readonly CategoryOption[] }) {
  return categories.map((c) => (
    <option key={c.id} value={c.id}>
      {c.name}
    </option>
  ));
}
