import { TetherError } from "../../protocol/index.ts";

const LF = 10;
const CR = 13;

/**
 * What an upstream's SSE body goes through before `@ag-ui/client`'s parser
 * sees it, one piece at a time.
 *
 * - Line ends as SSE has them: CRLF and a lone CR become LF. The client's
 *   parser (1.0.0) splits events on `\n\n` only, so a server that frames with
 *   CRLF (sse-starlette's default) would have every event held back until the
 *   stream ended, or the first-event timeout.
 * - An event may hold at most `maxEventBytes` between two blank lines: the
 *   parser keeps an unfinished event whole, and re-scans all of it on every
 *   piece, so a line that never ends would grow without bound (the parser's
 *   own limit is 10 MiB, with quadratic work before it).
 *
 * The cost is a native scan for CR and a backward scan for the last blank
 * line, which is near the end of a piece that ends with an event.
 */
export function createSseGuard(maxEventBytes: number): (piece: Uint8Array) => Uint8Array {
  // Bytes of the event not yet ended, whether the last byte was LF, and a CR that ended the last piece.
  let eventBytes = 0;
  let afterLf = true;
  let afterCr = false;
  return (piece) => {
    const bytes = afterCr || piece.includes(CR) ? normaliseLineEnds(piece) : piece;
    if (bytes.length === 0) return bytes;
    // The last blank line in this piece: an LF right after an LF (or after the last piece's LF).
    let boundary = -1;
    for (let index = bytes.length - 1; index >= 0; index--) {
      if (bytes[index] === LF && (index > 0 ? bytes[index - 1] === LF : afterLf)) {
        boundary = index;
        break;
      }
    }
    eventBytes = boundary < 0 ? eventBytes + bytes.length : bytes.length - 1 - boundary;
    afterLf = bytes[bytes.length - 1] === LF;
    if (eventBytes > maxEventBytes) {
      throw new TetherError(
        "upstream_error",
        `The upstream agent sent an event of more than ${maxEventBytes} bytes (its upstream.limits.maxEventBytes cap), so the run was stopped.`,
      );
    }
    return bytes;
  };

  function normaliseLineEnds(piece: Uint8Array): Uint8Array {
    const out = new Uint8Array(piece.length);
    let length = 0;
    for (const byte of piece) {
      if (afterCr) {
        afterCr = false;
        if (byte === LF) continue; // the LF of a CRLF whose CR was already written as LF
      }
      if (byte === CR) {
        afterCr = true;
        out[length++] = LF;
      } else out[length++] = byte;
    }
    return out.subarray(0, length);
  }
}
