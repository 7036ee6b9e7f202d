// The one import of fast-json-patch on the client: the library and version @ag-ui/client applies STATE_DELTA with, so a
// person's edit is replayed on the agent's state with the same rules (array `-`, `add` over a key, banned `__proto__`).
// Under Node ESM its CJS entry has no named `applyOperation`/`compare`: the default export carries them.
import jsonPatch, { type Operation } from "fast-json-patch";

/** One RFC 6902 operation, as STATE_DELTA carries them. */
export type JsonPatchOperation = Operation;

/** The operations that turn `from` into `to`: objects by key, arrays by position. */
export const diffState = (from: object, to: object): JsonPatchOperation[] => jsonPatch.compare(from, to);

/**
 * Applies one operation to `document` in place, checked first as `@ag-ui/client` checks a delta's
 * (`validate` on): an operation that does not apply throws and leaves `document` as it was.
 */
export const applyInPlace = <T>(document: T, operation: JsonPatchOperation): T =>
  jsonPatch.applyOperation(document, jsonPatch.deepClone(operation) as JsonPatchOperation, true, true).newDocument;

/** A deep copy of a JSON value. */
export const cloneJson = <T>(value: T): T => jsonPatch.deepClone(value) as T;
