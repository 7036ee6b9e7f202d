import { readFileSync } from "node:fs";

/**
 * Connections waiting in the accept queue of whoever listens on this TCP
 * port (IPv4), from /proc/net/tcp: a queue that stays full means the server
 * does not take new connections, whatever it does with the ones it has.
 */
export function acceptQueue(port: number): number {
  const local = `:${port.toString(16).toUpperCase().padStart(4, "0")}`;
  for (const line of readFileSync("/proc/net/tcp", "utf8").split("\n")) {
    const fields = line.trim().split(/\s+/);
    // For a listening socket (state 0A) rx_queue is the accept queue's length.
    if (fields[3] === "0A" && fields[1]?.endsWith(local)) return parseInt(fields[4]!.split(":")[1]!, 16);
  }
  return 0;
}

/** Connections the kernel dropped since boot because an accept queue was full (TcpExt ListenOverflows, machine-wide). */
export function listenOverflows(): number {
  const [names, values] = readFileSync("/proc/net/netstat", "utf8")
    .split("\n")
    .filter((line) => line.startsWith("TcpExt:"))
    .map((line) => line.split(/\s+/));
  return Number(values?.[names?.indexOf("ListenOverflows") ?? -1] ?? 0);
}
