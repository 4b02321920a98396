export const SNAPSHOT_FORMAT: "oddwire-snapshot";
export const SNAPSHOT_VERSION: 1;
export const SESSION_SETTINGS: string;
export const TABLES_SQL: string;
export const SEQUENCES_SQL: string;
export const MIGRATIONS_SQL: string;
