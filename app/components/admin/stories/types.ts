/** A category as the Stories page offers it in its selects. */
export type CategoryOption = { id: number; name: string };
