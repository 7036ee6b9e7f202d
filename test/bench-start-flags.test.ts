import { describe, expect, it } from "vitest";
import { nodeFlagsOf, startNodeFlags } from "../bench/load/start-process.ts";

// bench:load and bench:soak start the demo server with npm start's own Node flags; a misread would measure another server.
describe("the benchmarks' reading of npm start", () => {
  it("takes npm start's memory flags and nothing of how it loads its sources", () => {
    expect(startNodeFlags).toEqual(["--min-semi-space-size=32", "--max-semi-space-size=32", "--initial-old-space-size=64"]);
  });

  it("leaves out every loader and condition, whichever module it names", () => {
    expect(nodeFlagsOf("node --max-semi-space-size=16 --import=tsx/esm --import=./trace.mjs --conditions=dev app.ts")).toEqual(["--max-semi-space-size=16"]);
    expect(nodeFlagsOf("node --require=./a.cjs --loader=./b.mjs --experimental-loader=./c.mjs --v8-pool-size=4 app.ts")).toEqual(["--v8-pool-size=4"]);
  });

  it("reads a script that execs node, as npm start does so a signal to npm reaches the server", () => {
    expect(nodeFlagsOf("exec node --max-semi-space-size=16 --import=tsx app.ts")).toEqual(["--max-semi-space-size=16"]);
  });

  it.each([
    ["not node", "tsx --max-semi-space-size=16 app.ts"],
    ["a flag's value apart from it", "node --max-semi-space-size 16 app.ts"],
    ["a flag with no value", "node --expose-gc --max-semi-space-size=16 app.ts"],
    ["no flag of Node's own", "node --import=tsx app.ts"],
    ["no entry", "node --max-semi-space-size=16"],
    ["nothing but node", "exec node"],
    // A short option ends the run of --flags early: the flags after it would be lost without a word.
    ["a short option among its flags", "node --max-semi-space-size=32 -r ./preload.cjs --max-old-space-size=64 app.ts"],
    ["a short option's value among its flags", "node --max-semi-space-size=32 -C tether-source --initial-old-space-size=64 app.ts"],
    // Split on spaces, the script is not read as a shell would: quotes, variables and further commands are refused.
    ["a quoted value", 'node --title="tether demo" --max-semi-space-size=32 app.ts'],
    ["a variable", "node --max-semi-space-size=$SIZE app.ts"],
    ["a second command after it", "node --max-semi-space-size=32 app.ts && echo done"],
  ])("refuses a start script with %s rather than read it wrongly", (_what, script) => {
    expect(() => nodeFlagsOf(script)).toThrow(/start script is not/);
  });
});
