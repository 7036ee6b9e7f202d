import { request } from "node:http";
import { wallClock } from "./wall-clock.ts";

/**
 * The other process's `wallClock()` minus this one's, from `url` (which
 * answers with its clock): read 25 times, the reading with the shortest
 * round trip kept, the other clock taken to be read halfway through it.
 */
export async function measureClockOffset(url: string): Promise<{ offsetMs: number; roundTripMs: number }> {
  let best = { offsetMs: 0, roundTripMs: Number.POSITIVE_INFINITY };
  for (let attempt = 0; attempt < 25; attempt++) {
    const before = wallClock();
    const theirs = await new Promise<number>((resolve, reject) => {
      request(url, (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (part: string) => (text += part));
        response.on("end", () => resolve(Number(text)));
      })
        .on("error", reject)
        .end();
    });
    const after = wallClock();
    if (after - before < best.roundTripMs) best = { offsetMs: theirs - (before + after) / 2, roundTripMs: after - before };
  }
  return best;
}
