/** A business-rule failure with a stable code; the web and CLI layers map codes to responses. */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "DomainError";
  }
}
