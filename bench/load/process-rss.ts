import { readFileSync } from "node:fs";

/** Resident set size of a process, in bytes (0 once it is gone), from /proc/<pid>/statm. */
export function processRss(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/statm`, "utf8").split(" ")[1]) * 4096;
  } catch {
    return 0;
  }
}
