import { describe, expect, it } from "vitest";
import { parseFlags } from "./parse-flags.ts";

const RECORD = { values: ["api", "token"], switches: ["json"] };

describe("parseFlags", () => {
  it("reads --name value, --name=value and switches, and keeps the rest in order as positional", () => {
    expect(parseFlags(["run-1", "--api=http://x/api?a=b", "--token", "t0", "--json", "extra"], "record", RECORD)).toEqual({
      positional: ["run-1", "extra"],
      flags: { api: "http://x/api?a=b", token: "t0", json: "true" },
    });
  });

  it("leaves an option without its value empty, in either form, rather than taking the next option as its value", () => {
    expect(parseFlags(["--token", "--json"], "record", RECORD)).toEqual({ positional: [], flags: { token: "", json: "true" } });
    expect(parseFlags(["--token="], "record", RECORD)).toEqual({ positional: [], flags: { token: "" } });
    expect(parseFlags(["--api"], "record", RECORD)).toEqual({ positional: [], flags: { api: "" } });
  });

  it("refuses an option the command does not take, naming the ones it takes", () => {
    expect(parseFlags(["my-app", "--tehter", "x.tgz"], "init", { values: ["tether"] })).toEqual({
      refused: "Unknown option --tehter. tether init takes --tether.",
    });
    expect(parseFlags(["--colour=red"], "record", RECORD)).toEqual({ refused: "Unknown option --colour. tether record takes --api, --token and --json." });
    expect(parseFlags(["-p", "1"], "serve", { values: ["port", "host"] })).toEqual({ refused: "Unknown option -p. tether serve takes --port and --host." });
  });

  it("refuses a value given to a switch", () => {
    expect(parseFlags(["--json=no"], "record", RECORD)).toEqual({ refused: "--json takes no value (got --json=no)." });
  });

  it("reads --help and -h for every command, and takes what follows -- as positional", () => {
    expect(parseFlags(["-h"], "init", { values: ["tether"] })).toEqual({ positional: [], flags: { help: "true" } });
    expect(parseFlags(["--help"], "init", { values: [] })).toEqual({ positional: [], flags: { help: "true" } });
    expect(parseFlags(["--", "--odd-folder", "-"], "init", { values: ["tether"] })).toEqual({ positional: ["--odd-folder", "-"], flags: {} });
  });
});
