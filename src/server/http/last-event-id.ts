import { TetherError } from "../../protocol/index.ts";

/** `<runId>:<seq>`, the seq in plain decimal digits: `1e3`, `0x10`, ` 3` or `+3` name no event. */
const LAST_EVENT_ID = /^(.+):(0|[1-9][0-9]{0,14})$/;

/** Reads a `Last-Event-ID` as the SSE ids Tether sends spell it; anything else is `invalid_last_event_id`. */
export function parseLastEventId(value: string): { runId: string; seq: number } {
  const match = LAST_EVENT_ID.exec(value);
  if (!match) {
    throw new TetherError(
      "invalid_last_event_id",
      `Last-Event-ID "${value.slice(0, 80)}" is not an event id; expected <runId>:<seq>, the seq in digits, as the stream sent it.`,
    );
  }
  return { runId: match[1]!, seq: Number(match[2]) };
}
