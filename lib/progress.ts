/**
 * How far a long piece of work has got: `done` of `total` steps, a line a person can read, and the
 * running counts it keeps (enhanced, failed...). The one shape every long job and command reports.
 */
export type Progress = { done: number; total: number; message?: string; counts?: Record<string, number> };

/** Told a long piece of work's progress as it goes. */
export type OnProgress = (progress: Progress) => void | Promise<void>;
