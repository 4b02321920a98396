import { z } from "zod";

// Fields of the admin forms that name rows. A bad value is invalid input (a 400 through errorAnswer),
// answered with words the editor can read.

/** A row id sent as text. */
export function idField(message: string) {
  return z.coerce.number({ message }).int(message).positive(message);
}

/** A list of row ids sent as one JSON text (the bulk and reorder buttons). */
export function idListField(message: string) {
  return z.preprocess((text) => {
    try {
      return JSON.parse(typeof text === "string" ? text : "[]");
    } catch {
      return undefined;
    }
  }, z.array(idField(message), { message }));
}
