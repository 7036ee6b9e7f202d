import { TetherError } from "@tether-agent/tether/protocol";
import type { Logger } from "@tether-agent/tether/server";
import { openPgDemoDatabase } from "./demo-database/pg-demo-database.ts";
import type { Kitchen } from "./recipes/kitchen/kitchen.ts";
import { createPgKitchen } from "./recipes/kitchen/pg-kitchen.ts";
import { createSqliteKitchen } from "./recipes/kitchen/sqlite-kitchen.ts";
import { createPgWorkRequestRepository, createSqliteWorkRequestRepository, type WorkRequestRepository } from "./workdesk/agent/index.ts";

/** The demo apps' own data: the Workdesk's work requests and the Recipes kitchen. */
export interface DemoData {
  requests: WorkRequestRepository;
  kitchen: Kitchen;
  /** Where it lives, for the start-up log. */
  where: string;
  /** Closes it; call it once the Tether app has closed, so no run still needs it. */
  close(): Promise<void>;
}

/**
 * Where the apps' own data lives: with Tether's threads and runs, so the two
 * are kept, and lost, together. On SQLite, in the store's own file. On
 * PostgreSQL (several instances), in the schema `<Tether's schema>_demo` of
 * the same database, so a request closed or an order placed through one
 * instance is so for all of them.
 */
export async function openDemoData(options: { filename: string; databaseUrl?: string; databaseSchema: string; logger: Logger }): Promise<DemoData> {
  if (options.databaseUrl) {
    const schema = `${options.databaseSchema}_demo`;
    // PostgreSQL would cut a longer name to 63 bytes, silently, and a cut one could be Tether's own schema.
    if (Buffer.byteLength(schema) > 63) {
      throw new TetherError(
        "config_invalid",
        `The demo keeps its own data in the schema "${schema}", longer than PostgreSQL's 63 bytes: give TETHER_DATABASE_SCHEMA a name of at most 58 bytes.`,
      );
    }
    const database = await openPgDemoDatabase({
      connectionString: options.databaseUrl,
      schema,
      onListenError: (error) => options.logger.warn("The demo's connection that hears of closed work requests broke; listening again.", error),
    });
    try {
      const requests = await createPgWorkRequestRepository({
        database,
        onError: (error) => options.logger.error("Could not read the work requests again after a lost connection; will keep trying.", error),
      });
      const kitchen = await createPgKitchen({ database });
      return { requests, kitchen, where: `PostgreSQL (schema ${schema})`, close: () => database.close() };
    } catch (error) {
      await database.close();
      throw error;
    }
  }
  const requests = await createSqliteWorkRequestRepository({ filename: options.filename });
  try {
    const kitchen = createSqliteKitchen({ filename: options.filename });
    return {
      requests,
      kitchen,
      where: "TETHER_DATA_DIR",
      async close() {
        requests.closeDatabase();
        kitchen.closeDatabase();
      },
    };
  } catch (error) {
    requests.closeDatabase();
    throw error;
  }
}
