/**
 * The one shape of a clock: a reading in milliseconds. Whatever stamps, schedules or measures time
 * takes one as `now` (the system's by default), so a test passes its own and moves it by hand.
 */
export type Clock = () => number;

/** The wall clock, read at each call (so fake timers in tests reach it too). */
export const systemClock: Clock = () => Date.now();

/** The clock's reading as a Date, for what is stored or compared with stored times. */
export const dateOf = (now: Clock): Date => new Date(now());
