import type { JsonPatchOperation } from "@ag-ui/core";
// fast-json-patch is CommonJS: under Node's ESM only its default export carries applyPatch and compare.
import jsonPatch from "fast-json-patch";

/**
 * The one door to `fast-json-patch`, the library and version `@ag-ui/client`
 * applies STATE_DELTA with: using its call and flags here means a client
 * applying Tether's deltas lands exactly where the server did, on every edge
 * (array `-`, `add` over a key, numeric-looking keys).
 */

/** The document after `operations`, applied as `@ag-ui/client` does (validated, on a copy). Throws where one does not apply. */
export function applyOperations<T>(document: T, operations: JsonPatchOperation[]): T {
  return jsonPatch.applyPatch(document, operations as Parameters<typeof jsonPatch.applyPatch>[1], true, false).newDocument;
}

/** The JSON Patch that turns `from` into `to` (empty when they are equal as JSON). */
export function diffOperations(from: object, to: object): JsonPatchOperation[] {
  return jsonPatch.compare(from, to) as JsonPatchOperation[];
}

/** Why a patch did not apply, in words, and the path of the operation that failed when the library names it. */
export function patchFailure(error: unknown): { path?: string; why: string } {
  const failed = error as { name?: unknown; message?: unknown; operation?: { path?: unknown } };
  const path = typeof failed.operation?.path === "string" ? failed.operation.path : undefined;
  const at = path === undefined ? "" : ` at "${path}"`;
  if (failed.name === "OPERATION_PATH_UNRESOLVABLE") return { ...(path === undefined ? {} : { path }), why: `nothing exists${at}` };
  if (failed.name === "TEST_OPERATION_FAILED") return { ...(path === undefined ? {} : { path }), why: `the test${at} failed` };
  const message = typeof failed.message === "string" ? failed.message.split("\n")[0]! : String(error);
  return { ...(path === undefined ? {} : { path }), why: `${message}${at}` };
}
