import { isFetchError } from "~/integrations/http/fetch-error";
import { errorMessage } from "~/lib/error-message";
import { isFeedParseTimeout } from "./feed/parse-feed";

/** An error as one line for logs and editors: a fetch error's or a parse timeout's code, then its message. */
export function describeError(error: unknown): string {
  if (isFetchError(error) || isFeedParseTimeout(error)) return `${error.code}: ${error.message}`;
  return errorMessage(error);
}
