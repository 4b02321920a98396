// Pure rules about a source's health, shared by the server and the Sources page in the browser.

/** A source in trouble: in error, or its last fetch (or discovery) failed whatever its status says. */
export function inTrouble(source: { status: "active" | "inactive" | "error"; health: { failing: boolean } }): boolean {
  return source.status === "error" || source.health.failing;
}
