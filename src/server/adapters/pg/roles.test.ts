import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { isTetherError } from "../../../protocol/index.ts";
import { reachablePostgres, serverSchemas } from "../../../../test/helpers/postgres.ts";
import { createPgRunStore } from "./run-store.ts";
import { quoteIdentifier } from "./schema.ts";

/**
 * The PostgreSQL store as an operator sets it up with least privilege: a
 * role that may not create schemas, given one made for it; and the start-up
 * refusals an operator meets on the way (a role, database or right that is
 * missing), each with a code and a message saying what to fix, never a stack.
 */

const server = await reachablePostgres();
const skipped = "skipped" in server ? server.skipped : undefined;
if (skipped) console.info(`The PostgreSQL store under a role of few rights: skipped. ${skipped}`);

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (isTetherError(error)) return { code: error.code, message: error.message };
    return { code: `not a TetherError`, message: String(error) };
  }
  throw new Error("expected the store to refuse to open");
}

describe.skipIf(skipped)("the PostgreSQL store under a role of few rights", () => {
  const url = "url" in server ? server.url : "";
  const schemas = serverSchemas(url);
  const role = `tether_test_role_${process.pid}_${randomBytes(4).toString("hex")}`;
  const as = (name: string, database?: string) => {
    const address = new URL(url);
    address.username = name;
    address.password = "not-shown";
    if (database) address.pathname = `/${database}`;
    return address.toString();
  };
  const admin = new pg.Pool({ connectionString: url, max: 1 });
  let created = false;
  const makeRole = async () => {
    if (!created) await admin.query(`CREATE ROLE ${quoteIdentifier(role)} LOGIN PASSWORD 'not-shown'`);
    created = true;
  };

  afterAll(async () => {
    await schemas.dropAll();
    if (created) await admin.query(`DROP ROLE IF EXISTS ${quoteIdentifier(role)}`);
    await admin.end();
  });

  it("opens in a schema made for a role that may not create schemas, and again once migrated", async () => {
    await makeRole();
    const schema = schemas.make("granted");
    await admin.query(`CREATE SCHEMA ${quoteIdentifier(schema)} AUTHORIZATION ${quoteIdentifier(role)}`);
    const first = await createPgRunStore({ connectionString: as(role), schema });
    await first.close();
    const again = await createPgRunStore({ connectionString: as(role), schema });
    expect(await again.getThread("none")).toBeUndefined();
    await again.close();
  });

  it("refuses with config_invalid, saying what to grant, when the role may not create the schema", async () => {
    await makeRole();
    const found = await refusal(createPgRunStore({ connectionString: as(role), schema: schemas.make("denied") }));
    expect(found.code).toBe("config_invalid");
    expect(found.message).toMatch(/CREATE SCHEMA .* AUTHORIZATION/);
    expect(found.message).not.toContain("not-shown");
  });

  it("refuses with config_invalid naming the database when the role or the database does not exist", async () => {
    for (const connectionString of [as(`${role}_none`), as(role, `${role}_none`)]) {
      const found = await refusal(createPgRunStore({ connectionString, schema: schemas.make("none") }));
      expect(found.code).toBe("config_invalid");
      expect(found.message).toContain("TETHER_DATABASE_URL");
      expect(found.message).not.toContain("not-shown");
    }
  });

  it("refuses a URL of another database than PostgreSQL with config_invalid", async () => {
    const found = await refusal(createPgRunStore({ connectionString: "mysql://tether@127.0.0.1/tether", schema: "tether" }));
    expect(found.code).toBe("config_invalid");
    expect(found.message).toContain("postgres://");
  });
});
