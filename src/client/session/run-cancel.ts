import type { HttpAgentFetchFn } from "@ag-ui/client";
import { errorFromResponse, errorJson, type SessionError } from "../errors.ts";

export interface RunCancel {
  /** Asks the server to stop the run; one it does not know yet (404: its request is still on the way) is asked again when it starts. */
  request(runId: string): Promise<void>;
  /** The server started a run: a Stop that came before it is sent now. */
  started(runId: string): void;
}

/**
 * Stop, as the session sends it. Stop may be pressed before the server has
 * the run (its request still on the way): the cancel gets a 404 while the run
 * goes on, so it is sent again once `RUN_STARTED` arrives, or at once if the
 * run started while the 404 was coming back; once only.
 */
export function createRunCancel(options: {
  api: string;
  fetch: HttpAgentFetchFn;
  headers: Record<string, string>;
  /** Whether `runId` is still the run this page is waiting on. */
  isCurrent(runId: string): boolean;
  onError(error: SessionError): void;
}): RunCancel {
  let startedRunId: string | undefined;
  let cancelWhenStarted: string | undefined;

  const request = async (runId: string, again = false): Promise<void> => {
    const response = await options.fetch(`${options.api}/runs/${encodeURIComponent(runId)}/cancel`, {
      method: "POST",
      headers: { ...options.headers, "Content-Type": "application/json" },
      body: "{}",
    });
    if (response.status === 404 && options.isCurrent(runId) && !again) {
      if (startedRunId === runId) return request(runId, true); // it started while the answer was on its way
      cancelWhenStarted = runId;
      return;
    }
    if (!response.ok && response.status !== 409) options.onError(errorJson(await errorFromResponse(response)));
  };

  return {
    request: (runId) => request(runId),
    started(runId) {
      startedRunId = runId;
      if (cancelWhenStarted !== runId) return;
      cancelWhenStarted = undefined;
      void request(runId);
    },
  };
}
