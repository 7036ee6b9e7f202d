/** The options a command takes: each is given as `--name value` or `--name=value`, a switch as `--name` alone. */
export interface CommandOptions {
  /** Options that take a value. */
  values: readonly string[];
  /** Options that take none (`--json`). */
  switches?: readonly string[];
}

/** A command line read against the command's options. */
export type ParsedArgs =
  | { positional: string[]; flags: Record<string, string>; refused?: undefined }
  | {
      /** Why the line was refused: an option the command does not take, or a value given to a switch. */
      refused: string;
    };

/**
 * Reads a command's arguments. Every command also takes `--help` (or `-h`), read as the switch `help`.
 * An option the command does not take is refused, not ignored: a misspelled `--tehter` would
 * otherwise leave the default in place and exit 0. Arguments after `--` are positional.
 */
export function parseFlags(args: string[], command: string, options: CommandOptions): ParsedArgs {
  const switches = ["help", ...(options.switches ?? [])];
  const positional: string[] = [];
  const flags: Record<string, string> = {};
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === "--") {
      positional.push(...args.slice(index + 1));
      break;
    }
    if (arg === "-h") {
      flags.help = "true";
      continue;
    }
    if (!arg.startsWith("-") || arg === "-") {
      positional.push(arg);
      continue;
    }
    const equals = arg.indexOf("=");
    const name = arg.startsWith("--") ? arg.slice(2, equals < 0 ? undefined : equals) : "";
    if (switches.includes(name)) {
      if (equals >= 0) return { refused: `--${name} takes no value (got ${arg}).` };
      flags[name] = "true";
    } else if (options.values.includes(name)) {
      const next = args[index + 1];
      // An option missing its value is left empty, not given the next option as its value (`--token --json`).
      if (equals >= 0) flags[name] = arg.slice(equals + 1);
      else flags[name] = next !== undefined && !next.startsWith("--") ? args[++index]! : "";
    } else {
      const known = [...options.values, ...(options.switches ?? [])].map((option) => `--${option}`);
      const takes = known.length > 0 ? `tether ${command} takes ${list(known)}.` : `tether ${command} takes no options.`;
      return { refused: `Unknown option ${equals < 0 ? arg : arg.slice(0, equals)}. ${takes}` };
    }
  }
  return { positional, flags };
}

/** `a`, `a and b`, `a, b and c`. */
function list(words: string[]): string {
  return words.length === 1 ? words[0]! : `${words.slice(0, -1).join(", ")} and ${words.at(-1)!}`;
}
