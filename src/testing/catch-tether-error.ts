import { isTetherError, type TetherError } from "../protocol/index.ts";

/** Runs `action` and returns the TetherError it threw; anything else (or nothing) fails the test. */
export function catchTetherError(action: () => unknown): TetherError {
  try {
    action();
  } catch (error) {
    if (isTetherError(error)) return error;
    throw error;
  }
  // A failed assertion for the test's author, as expect() throws: not a TetherError, so no test can mistake it for one.
  throw new Error("expected a TetherError, but nothing was thrown");
}
