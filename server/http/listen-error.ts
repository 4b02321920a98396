import { createServer } from "node:net";

/** The site could not listen on its address; the message says what to do. */
export class ListenError extends Error {
  constructor(
    readonly code: "PORT_IN_USE" | "PORT_NOT_ALLOWED",
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ListenError";
  }
}

/** What a failed listen on `port` means for the person starting the site, or the error itself. */
export function listenErrorOf(error: unknown, port: number, setting = "PORT"): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "EADDRINUSE") {
    return new ListenError("PORT_IN_USE", `Port ${port} is already in use (by another Oddwire, or another program): stop that, or set ${setting} to a free port.`, { cause: error });
  }
  if (code === "EACCES") {
    return new ListenError("PORT_NOT_ALLOWED", `This user may not listen on port ${port} (ports below 1024 need privileges): set ${setting} to 1024 or above.`, { cause: error });
  }
  return error;
}

/**
 * Listens on the address for a moment and lets it go: the cluster's primary asks before it forks web
 * processes, which would otherwise each fail on a taken port and end with no word of why.
 */
export async function checkCanListen(port: number, host: string): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once("error", (error) => reject(listenErrorOf(error, port)));
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}
