/**
 * Redaction: the grammar that finds secrets in what a run record keeps (named
 * values, key shapes, marked spans) and replaces them. The record's entry file
 * for it: the record's modules import this, never the grammar's parts.
 *
 * @module
 */
export { redact, redactPieces, redactString, secretSpans, REDACTED, type SecretSpan } from "./redact.ts";
