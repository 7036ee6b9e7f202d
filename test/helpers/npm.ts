import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/** npm in a folder outside the repo (a fixture's copy), without the variables the repo's own `npm run` put in the environment. */
export async function npm(cwd: string, args: string[]): Promise<string> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith("npm_")));
  try {
    return (await run("npm", args, { cwd, env, maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    throw new Error(`npm ${args.join(" ")} failed in ${cwd}:\n${failed.stdout ?? ""}\n${failed.stderr ?? ""}`);
  }
}
