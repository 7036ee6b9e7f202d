/** A PostgreSQL identifier (a schema, a channel) quoted for SQL, whatever characters it holds. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
