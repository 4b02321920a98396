import { z } from "zod";

// Reading the admin forms, in the browser and on the server alike: the fields as one object for a
// zod schema, and the fields that name rows. A bad value is invalid input (a 400 through errorAnswer),
// answered with words the editor can read.

/** A submitted form's fields, a field sent more than once (keyword lists) as a list. */
export type FormFields = Record<string, FormDataEntryValue | FormDataEntryValue[]>;

/** The one reading of submitted form data: each field once, repeated fields as lists in their order. */
export function formFields(form: FormData): FormFields {
  const fields: FormFields = {};
  for (const key of new Set(form.keys())) {
    const values = form.getAll(key);
    fields[key] = values.length === 1 ? values[0]! : values;
  }
  return fields;
}

/** A row id sent as text. */
export function idField(message: string) {
  return z.coerce.number({ message }).int(message).positive(message);
}

/** A row id, or none when the field is blank or absent (a select's empty option). */
export function optionalIdField(message: string) {
  return z.preprocess((value) => (value === "" || value === undefined ? null : value), idField(message).nullable());
}

/** A JSON text of the form's field, absent read as an empty list; text that is not JSON reads as nothing (refused by the schema). */
const jsonList = (text: unknown) => {
  try {
    return JSON.parse(typeof text === "string" ? text : "[]");
  } catch {
    return undefined;
  }
};

/** A list of row ids sent as one JSON text (the bulk and reorder buttons). */
export function idListField(message: string) {
  return z.preprocess(jsonList, z.array(idField(message), { message }));
}

/** Pairs of row ids sent as one JSON text, `[[1, 4], [2, 7]]` (a story and the category chosen for it); none when absent. */
export function idPairsField(message: string) {
  return z.preprocess(jsonList, z.array(z.tuple([idField(message), idField(message)], { message }), { message }));
}
