import { isTetherError, type TetherError } from "../protocol/index.ts";

/** Runs `action` and returns the TetherError it threw; anything else (or nothing) fails the test. */
export function catchTetherError(action: () => unknown): TetherError {
  try {
    action();
  } catch (error) {
    if (isTetherError(error)) return error;
    throw error;
  }
  throw new Error("expected a TetherError, but nothing was thrown");
}
