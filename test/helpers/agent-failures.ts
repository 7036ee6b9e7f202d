import { afterEach, beforeEach, vi } from "vitest";

/** What @ag-ui/client's AbstractAgent writes with console.error, with the error, for each run that fails before it throws it on. */
const FAILED = "Agent execution failed:";

/**
 * Catches, in each test of the calling file, the errors @ag-ui/client logs
 * for runs that fail, so a test of a refused run reads them with `take()`
 * rather than printing a stack trace for each refusal it expects. Any other
 * console.error passes through, and a failure its test did not take is
 * printed after the test, as it would have been.
 */
export function agentFailures(): { take(): unknown[] } {
  let caught: unknown[] = [];
  let restore = () => {};
  beforeEach(() => {
    caught = [];
    const print = console.error.bind(console);
    const spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
      if (args[0] === FAILED) caught.push(args[1]);
      else print(...args);
    });
    restore = () => spy.mockRestore();
  });
  afterEach(() => {
    restore();
    for (const error of caught.splice(0)) console.error(FAILED, error);
  });
  return { take: () => caught.splice(0) };
}
