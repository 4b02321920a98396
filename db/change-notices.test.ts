import { describe, expect, test } from "vitest";
import { testDatabaseForFile } from "./testing/test-database";
import { listenForPublicPageChanges, notifyPublicPagesChanged, PUBLIC_PAGES_CHANNEL } from "./change-notices";

// LISTEN/NOTIFY exists between processes on a PostgreSQL server only; the embedded database has one process.
const t = testDatabaseForFile();


describe("public-page change notices", () => {
  const postgres = () => {
    const database = t.database;
    return database;
  };

  test("a listener hears other origins' notices and not its own", async () => {
    let changes = 0;
    const listener = await listenForPublicPageChanges({ connectionString: postgres().connectionString, onChange: () => changes++ });
    try {
      await notifyPublicPagesChanged(postgres(), listener.origin);
      await notifyPublicPagesChanged(postgres(), "another web process");
      await notifyPublicPagesChanged(postgres(), "a third web process");
      // Notices arrive in the order they were sent: once the last is heard, the own one, sent first,
      // has arrived too, and was skipped.
      await expect.poll(() => changes, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
      expect(changes).toBe(2);
    } finally {
      await listener.close();
    }
  });

  test("a listener whose connection is cut listens again, and counts the gap as a change", async () => {
    let changes = 0;
    const errors: string[] = [];
    const listener = await listenForPublicPageChanges({
      connectionString: postgres().connectionString,
      onChange: () => changes++,
      onError: (error) => errors.push(error.message),
    });
    try {
      const cut = (await postgres().pool.query(
        "SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity WHERE datname = current_database() AND query = $1",
        [`LISTEN ${PUBLIC_PAGES_CHANNEL}`],
      )) as { rows: { cut: boolean }[] };
      expect(cut.rows).toEqual([{ cut: true }]);
      await expect.poll(() => changes, { timeout: 10_000 }).toBe(1);
      expect(errors.length).toBeGreaterThan(0);
      await notifyPublicPagesChanged(postgres(), "another web process");
      await expect.poll(() => changes, { timeout: 10_000 }).toBe(2);
    } finally {
      await listener.close();
    }
  });

  test("a closed listener hears nothing more", async () => {
    let changes = 0;
    let heardOpen = 0;
    const listener = await listenForPublicPageChanges({ connectionString: postgres().connectionString, onChange: () => changes++ });
    await listener.close();
    const open = await listenForPublicPageChanges({ connectionString: postgres().connectionString, onChange: () => heardOpen++ });
    try {
      await notifyPublicPagesChanged(postgres(), "another web process");
      // The notice reached every listener once a listener still open has heard it.
      await expect.poll(() => heardOpen, { timeout: 10_000 }).toBe(1);
    } finally {
      await open.close();
    }
    expect(changes).toBe(0);
    const listening = (await postgres().pool.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'")) as {
      rows: { n: number }[];
    };
    expect(listening.rows[0]?.n).toBe(0);
  });
});
