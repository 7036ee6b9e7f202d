import type { AgentCapabilities, Tool } from "@ag-ui/core";
import { TetherError, diffSchemas, formatSchemaDiff, splitSchemaDiff, toAgUiTool } from "../protocol/index.ts";
import type { BrowserToolHandler } from "./tools/index.ts";

/** How this page's browser tools and the server's allow-list disagree. */
export interface DriftReport {
  /** Tools this page registered that the server does not allow. */
  unknown: string[];
  /** Tools whose parameters differ in shape from the allow-listed schema, with a readable diff of the shape differences. */
  mismatched: Array<{ name: string; diff: string }>;
  /** Tools the server requires that this page has no executor for. */
  missing: string[];
  /**
   * Annotations (description, title, examples, $comment) this page words
   * differently, one per schema path. Never drift: the server accepts them,
   * and the model reads this page's wording.
   */
  notes: Array<{ name: string; path: string }>;
}

/** Whether the server would refuse or miss something; annotation notes never count. */
export function hasDrift(report: DriftReport): boolean {
  return report.unknown.length + report.mismatched.length + report.missing.length > 0;
}

/** The allow-list a server publishes in its capabilities (`custom.browserTools`). */
export function allowListOf(capabilities: AgentCapabilities): Tool[] {
  const tools = (capabilities.custom as { browserTools?: unknown } | undefined)?.browserTools;
  return Array.isArray(tools) ? (tools as Tool[]) : [];
}

/** Compares declared tools (AG-UI `Tool` objects, as a frontend sends them) with an allow-list. */
export function compareTools(declared: Tool[], allowList: Tool[]): DriftReport {
  const allowed = new Map(allowList.map((tool) => [tool.name, tool]));
  const names = new Set(declared.map((tool) => tool.name));
  const report: DriftReport = { unknown: [], mismatched: [], missing: [], notes: [] };
  for (const tool of declared) {
    const expected = allowed.get(tool.name);
    if (!expected) {
      report.unknown.push(tool.name);
      continue;
    }
    const { shape, annotations } = splitSchemaDiff(diffSchemas(expected.parameters ?? {}, tool.parameters ?? {}));
    if (shape.length > 0) report.mismatched.push({ name: tool.name, diff: formatSchemaDiff(shape) });
    report.notes.push(...annotations.map((difference) => ({ name: tool.name, path: difference.path })));
  }
  for (const tool of allowList) {
    const required = (tool.metadata as { tether?: { required?: boolean } } | undefined)?.tether?.required;
    if (required && !names.has(tool.name)) report.missing.push(tool.name);
  }
  return report;
}

export function compareHandlers(handlers: BrowserToolHandler[], allowList: Tool[]): DriftReport {
  return compareTools(
    handlers.map((handler) => toAgUiTool(handler.spec)),
    allowList,
  );
}

/** One line per problem, naming each drifted tool. */
export function formatDrift(report: DriftReport): string {
  return [
    ...report.unknown.map((name) => `${name}: not on the server's allow-list`),
    ...report.mismatched.map(({ name, diff }) => `${name}: parameters differ from the server's\n${diff.replace(/^/gm, "    ")}`),
    ...report.missing.map((name) => `${name}: required by the server, but this frontend has no executor for it`),
  ].join("\n");
}

/** One line per annotation this frontend words differently, e.g. `note: offerRecipes: properties.reason.description differs (…)`. */
export function formatNotes(report: DriftReport): string {
  return report.notes.map(({ name, path }) => `note: ${name}: ${path} differs (the frontend's wording is used)`).join("\n");
}

/**
 * Compares a page's tools with what the server allows (its capabilities):
 * drift is a warning in development (`warn`), an error in tests (`throw`).
 * Without capabilities (a plain AG-UI server) there is nothing to check.
 */
export async function checkAgainstServer(options: {
  /** The agent's capabilities; absent for a plain AG-UI server. */
  capabilities: (() => Promise<AgentCapabilities>) | undefined;
  handlers: BrowserToolHandler[];
  agentId: string;
  onDrift: "warn" | "throw" | "ignore";
}): Promise<DriftReport> {
  if (!options.capabilities || options.onDrift === "ignore") return { unknown: [], mismatched: [], missing: [], notes: [] };
  const report = compareHandlers(options.handlers, allowListOf(await options.capabilities()));
  if (hasDrift(report)) {
    const message = `This page's browser tools differ from what agent "${options.agentId}" allows:\n${formatDrift(report)}`;
    if (options.onDrift === "throw") throw new TetherError("tool_schema_mismatch", message, { details: report });
    console.warn(`[tether] ${message}`);
  }
  return report;
}
