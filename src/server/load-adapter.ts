import { missingDriver } from "./missing-driver.ts";

/**
 * The adapters `createTetherApp` picks from, each reached only here and only
 * through a dynamic import of its entry file: a process loads the one it
 * picks, and needs only that one's driver installed. One literal `import()`
 * each, so bundlers and the dependency rules see them.
 */
const ADAPTERS = {
  sqlite: () => import("./adapters/sqlite/index.ts"),
  pg: () => import("./adapters/pg/index.ts"),
  redis: () => import("./adapters/redis/index.ts"),
};

export type AdapterModules = { [Name in keyof typeof ADAPTERS]: Awaited<ReturnType<(typeof ADAPTERS)[Name]>> };

export type ImportAdapter = <Name extends keyof AdapterModules>(name: Name) => Promise<AdapterModules[Name]>;

const importAdapter: ImportAdapter = async (name) => (await ADAPTERS[name]()) as AdapterModules[typeof name];

/**
 * An adapter's module, loaded on first use. Its driver not installed, the
 * error is `config_invalid` naming the package to install.
 */
export async function loadAdapter<Name extends keyof AdapterModules>(name: Name, load: ImportAdapter = importAdapter): Promise<AdapterModules[Name]> {
  try {
    return await load(name);
  } catch (error) {
    throw missingDriver(error, name) ?? error;
  }
}
