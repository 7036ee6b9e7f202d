import { missingDriver } from "./missing-driver.ts";

/** The adapters `createTetherApp` picks from, each loaded only when chosen, through its entry file. */
export interface AdapterModules {
  sqlite: typeof import("./adapters/sqlite/index.ts");
  pg: typeof import("./adapters/pg/index.ts");
  redis: typeof import("./adapters/redis/index.ts");
}

export type ImportAdapter = <Name extends keyof AdapterModules>(name: Name) => Promise<AdapterModules[Name]>;

// One literal import() per adapter: bundlers and the dependency rules see each one; a process loads only the one it picks.
const importAdapter: ImportAdapter = async (name) => {
  const modules = {
    sqlite: () => import("./adapters/sqlite/index.ts"),
    pg: () => import("./adapters/pg/index.ts"),
    redis: () => import("./adapters/redis/index.ts"),
  };
  return (await modules[name]()) as AdapterModules[typeof name];
};

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
