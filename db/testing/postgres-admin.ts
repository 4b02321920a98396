// Helpers for creating and dropping throw-away PostgreSQL databases in tests.

const SAFE_NAME = /^[a-z_][a-z0-9_]*$/;

function quoted(name: string): string {
  if (!SAFE_NAME.test(name)) throw new Error(`unsafe database name: ${name}`);
  return `"${name}"`;
}

/** The same server URL, pointing at another database. */
export function adminUrl(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export function createDatabaseSql(name: string, template?: string): string {
  return `CREATE DATABASE ${quoted(name)}${template ? ` TEMPLATE ${quoted(template)}` : ""}`;
}

export function dropDatabaseSql(name: string): string {
  return `DROP DATABASE IF EXISTS ${quoted(name)} WITH (FORCE)`;
}
