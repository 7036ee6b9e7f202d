import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks per second of /proc's CPU times: 100 on every Linux this runs on. */
const TICKS_PER_SECOND = 100;

/** User + system CPU a process has used, in ms (0 once it is gone). */
export function processCpuMs(pid: number): number {
  try {
    return ticksOf(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return 0;
  }
}

/** User + system CPU of every live process with this command name (`postgres`, `redis-server`, `nginx`), in ms. */
export function commandCpuMs(command: string): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")) === command) total += ticksOf(stat);
    } catch {
      // gone between the listing and the read
    }
  }
  return total;
}

function ticksOf(stat: string): number {
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}
