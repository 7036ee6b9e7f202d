/**
 * Lit, which A2UI's web core loads, runs its development build under vitest (it resolves the `development`
 * export condition) and says so on the console in every test file that loads it. Lit lets a page turn that
 * one warning off by its code (https://lit.dev/msg/dev-mode); the development build's checks still run.
 */
(globalThis as { litIssuedWarnings?: Set<string> }).litIssuedWarnings = new Set(["dev-mode"]);
