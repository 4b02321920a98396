import { data, type ActionFunctionArgs } from "react-router";
import type { z } from "zod";
import { failedAction } from "./action-toast";
import { requireAdmin, type AdminUser } from "./admin.server";
import { errorAnswer, type ErrorAnswer } from "./error-response.server";
import { formFields, type FormFields } from "./form-fields";

/** What an intent's domain call has to hand: the signed-in admin and the request's context. */
export type IntentContext = { me: AdminUser; context: ActionFunctionArgs["context"] };

/**
 * How a refused or failed intent is told to the editor: `fallback` is the generic text a failure that
 * is not the editor's doing is answered with (errorAnswer logs the rest); `title` and `description`
 * word the toast from the one mapping's answer, and `more` adds what a screen reads besides the toast.
 */
export type Failure = {
  fallback: string;
  title: string | ((answer: ErrorAnswer, form: FormFields) => string);
  description?: (answer: ErrorAnswer) => string;
  more?: (answer: ErrorAnswer) => Record<string, unknown>;
};

/** One intent of a route's action: its form's schema, the domain call, and how its failures read. */
export type Intent<S extends z.ZodType = z.ZodType> = {
  schema: S;
  run: (input: z.output<S>, ctx: IntentContext) => Promise<unknown>;
  /** The public site shows what this changes: its cached pages are dropped after a success. */
  changesSite?: boolean;
  /** This intent's own failure wording, instead of the route's. */
  failure?: Failure;
};

/** One intent, typed from its schema (a plain object literal would lose the input's type). */
export function intent<S extends z.ZodType>(spec: Intent<S>): Intent<S> {
  return spec;
}

/** What an action answers a form whose intent it does not know. */
export const UNKNOWN_ACTION = "Unknown action";

/**
 * The one way an admin route acts on a form: the admin gate, the form's `intent`, that intent's
 * schema over the form's fields, the domain call, and its answer. A refusal or failure goes through
 * the one error mapping (errorAnswer) and comes back as a toast, with the fields' problems under
 * `fields` and the status of its kind; an unknown intent is a 400 the same way on every screen.
 */
export async function adminAction(args: ActionFunctionArgs, intents: Record<string, Intent>, failure: Failure): Promise<unknown> {
  const me = await requireAdmin(args);
  const form = formFields(await args.request.formData());
  const name = typeof form.intent === "string" ? form.intent : "";
  const chosen = Object.hasOwn(intents, name) ? intents[name] : undefined;
  if (!chosen) return data(failedAction({ message: UNKNOWN_ACTION }, "Error"), { status: 400 });
  const said = chosen.failure ?? failure;
  try {
    const input = chosen.schema.parse(form);
    const answer = await chosen.run(input, { me, context: args.context });
    if (chosen.changesSite) args.context.invalidatePublicPages();
    return answer;
  } catch (error) {
    const answer = errorAnswer(error, args.context.logger, said.fallback, { intent: name, actorUserId: me.id });
    const title = typeof said.title === "string" ? said.title : said.title(answer, form);
    const description = said.description?.(answer) ?? answer.message;
    return data({ ...failedAction(answer, title, description), ...said.more?.(answer) }, { status: answer.status });
  }
}
