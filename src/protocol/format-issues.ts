/** A schema library's complaint about one place in a value (zod's issues have this shape). */
export interface SchemaIssue {
  path: ReadonlyArray<PropertyKey>;
  message: string;
}

/** The first few issues as one line a person can act on: `messages.0.role: Invalid input; tools: Required`. */
export function formatIssues(issues: ReadonlyArray<SchemaIssue>, root = "(value)", limit = 5): string {
  return issues
    .slice(0, limit)
    .map((issue) => `${issue.path.map(String).join(".") || root}: ${issue.message}`)
    .join("; ");
}
