/** What went wrong starting or stopping the embedded PostgreSQL server; each code has one remedy. */
export type EmbeddedServerErrorCode =
  | "EMBEDDED_UNSUPPORTED_PLATFORM"
  | "EMBEDDED_BINARIES_MISSING"
  | "EMBEDDED_DB_USER_UNAVAILABLE"
  | "DATA_DIR_READ_ONLY"
  | "DATA_DIR_NOT_WRITABLE"
  | "DISK_FULL"
  | "EMBEDDED_SOCKET_IN_USE"
  | "EMBEDDED_SOCKET_DIR_UNSAFE"
  | "SERVE_ALREADY_RUNNING"
  | "EMBEDDED_LOCK_TIMEOUT"
  | "EMBEDDED_INIT_FAILED"
  | "EMBEDDED_CLUSTER_VERSION"
  | "EMBEDDED_START_FAILED"
  | "EMBEDDED_STOP_FAILED";

const ELSEWHERE = "or set DATABASE_URL to use a PostgreSQL server of your own";

/** Thrown by the embedded server with a code and a message that says what to do. */
export class EmbeddedServerError extends Error {
  constructor(
    readonly code: EmbeddedServerErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message.includes("DATABASE_URL") ? message : `${message}; ${ELSEWHERE}.`, options);
    this.name = "EmbeddedServerError";
  }
}

/** Maps a file-system failure on `dir` to the error that tells the user what to do about it. */
export function fileSystemError(error: unknown, dir: string, doing: string): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "EROFS") {
    return new EmbeddedServerError("DATA_DIR_READ_ONLY", `Cannot ${doing}: ${dir} is on a read-only file system. Point DATA_DIR at a writable directory`, {
      cause: error,
    });
  }
  if (code === "EACCES" || code === "EPERM") {
    return new EmbeddedServerError("DATA_DIR_NOT_WRITABLE", `Cannot ${doing}: ${dir} is not writable by this user. Point DATA_DIR at a directory you own`, {
      cause: error,
    });
  }
  if (code === "ENOSPC" || code === "EDQUOT") {
    return new EmbeddedServerError("DISK_FULL", `Cannot ${doing}: the disk holding ${dir} is full. Free some space or point DATA_DIR at another disk`, {
      cause: error,
    });
  }
  return error;
}

/** What a failed initdb or start of the server means, from what PostgreSQL said (a full disk, a read-only one, a taken socket). */
export function programFailure(code: "EMBEDDED_INIT_FAILED" | "EMBEDDED_START_FAILED", doing: string, dir: string, output: string): EmbeddedServerError {
  const said = `or set DATABASE_URL to use a PostgreSQL server of your own. PostgreSQL said:\n${output.trim().split("\n").slice(-12).join("\n")}\n`;
  if (/No space left on device|could not extend file/i.test(output)) {
    return new EmbeddedServerError("DISK_FULL", `Cannot ${doing}: the disk holding ${dir} is full. Free some space, point DATA_DIR at another disk, ${said}`);
  }
  if (/Read-only file system/i.test(output)) {
    return new EmbeddedServerError("DATA_DIR_READ_ONLY", `Cannot ${doing}: ${dir} is on a read-only file system. Point DATA_DIR at a writable directory, ${said}`);
  }
  if (/could not bind Unix address|Address already in use/i.test(output)) {
    return new EmbeddedServerError("EMBEDDED_SOCKET_IN_USE", `Cannot ${doing}: its socket is taken by another program. Stop that program, ${said}`);
  }
  return new EmbeddedServerError(code, `Cannot ${doing} (its files and log are in ${dir}). Fix what PostgreSQL says below, ${said}`);
}
