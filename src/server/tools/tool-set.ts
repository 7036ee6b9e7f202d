import type { Tool } from "@ag-ui/core";
import {
  TetherError,
  approvalResponseSchema,
  formatSchemaDiff,
  type ApprovalResponse,
  type ArgumentChecker,
  type BrowserToolKind,
  type BrowserToolSpec,
  type JsonSchema,
  type TetherErrorCode,
} from "../../protocol/index.ts";
import type { TetherUser } from "../auth/index.ts";
import type { RunLogEntry } from "../store/index.ts";
import { compareToAllowList } from "./compare-to-allow-list.ts";
import type { ServerTool } from "./define-tool.ts";

/** How a tool's calls are put to a person before they happen. */
export interface RunToolApproval {
  needed(args: unknown, user: TetherUser): boolean;
  message(args: unknown, user: TetherUser): string;
  responseSchema: JsonSchema;
  apply(args: unknown, answer: ApprovalResponse): unknown;
}

/** A tool as one run offers it to the model. */
export type RunTool = (
  | { location: "server"; name: string; description: string; parameters: JsonSchema; server: ServerTool }
  | { location: "browser"; name: string; description: string; parameters: JsonSchema; kind: BrowserToolKind }
  /**
   * An upstream agent's own tool that needs approval: the upstream leaves the call for its client,
   * Tether asks the person and sends the answer back to the upstream as the call's result.
   */
  | { location: "upstream"; name: string; description: string; parameters: JsonSchema }
) & {
  /**
   * The schema the model is shown. For a browser tool whose client reworded
   * its schema's annotations, the client's schema as declared, so its wording
   * reaches the model; otherwise `parameters`. Arguments are always checked
   * against `parameters`, the allow-listed object the checker compiled once.
   */
  modelParameters: JsonSchema;
  approval?: RunToolApproval;
};

export interface ToolSet {
  tools: Map<string, RunTool>;
  /** The agent's checker: every call's arguments are checked with it before anything runs. */
  checker: ArgumentChecker;
  /** Why declared browser tools were left out (policy `drop`). */
  log: RunLogEntry[];
}

/** Where a run's tools come from: an agent's server tools and its browser-tool allow-list. */
export interface ToolSource {
  id: string;
  tools: ServerTool[];
  browserTools: BrowserToolSpec[];
  browserToolPolicy: "strict" | "drop";
  checker: ArgumentChecker;
  /** An upstream agent's approvals by tool name: its own tools, and browser tools beside their own `needsApproval`. */
  approvals?: ReadonlyMap<string, RunToolApproval>;
}

interface Refusal {
  code: Extract<TetherErrorCode, "tool_not_allowed" | "tool_schema_mismatch" | "tool_name_conflict">;
  tool: string;
  message: string;
  diff?: string;
}

/**
 * The run's tools: server tools the user may see, plus the browser tools the
 * client declared that pass the allow-list and its schema. A frontend may
 * reword a tool (its description, and the description, title, examples and
 * $comment anywhere in its schema), never its name or its schema's shape.
 */
export function buildToolSet(agent: ToolSource, user: TetherUser, declared: Tool[]): ToolSet {
  const tools = new Map<string, RunTool>();
  for (const tool of agent.tools) {
    if (tool.visibleTo && !tool.visibleTo(user)) continue;
    const approval = serverApproval(tool);
    tools.set(tool.name, {
      location: "server",
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      modelParameters: tool.parameters,
      server: tool,
      ...(approval ? { approval } : {}),
    });
  }

  const serverNames = new Set(agent.tools.map((tool) => tool.name));
  const allowList = new Map(agent.browserTools.map((spec) => [spec.name, spec]));
  const names = new Set<string>();
  const refusals: Refusal[] = [];
  for (const tool of declared) {
    if (names.has(tool.name)) {
      throw new TetherError("tool_duplicate", `The browser tool "${shown(tool.name)}" is declared twice in this request.`);
    }
    names.add(tool.name);
    const spec = allowList.get(tool.name);
    if (serverNames.has(tool.name)) {
      refusals.push({ code: "tool_name_conflict", tool: tool.name, message: `"${tool.name}" is the name of a server tool; a browser tool cannot take it.` });
    } else if (!spec) {
      refusals.push({
        code: "tool_not_allowed",
        tool: shown(tool.name),
        message: `"${shown(tool.name)}" is not on agent "${agent.id}"'s browser-tool allow-list.`,
      });
    } else {
      const declaredParameters: JsonSchema = tool.parameters ?? {};
      const { shape, annotations } = compareToAllowList(spec, declaredParameters);
      if (shape.length > 0) {
        const diff = formatSchemaDiff(shape);
        refusals.push({
          code: "tool_schema_mismatch",
          tool: tool.name,
          message: `The parameters of "${tool.name}" differ from the allow-listed schema:\n${diff}`,
          diff,
        });
      } else {
        tools.set(tool.name, {
          location: "browser",
          name: spec.name,
          description: tool.description || spec.description,
          parameters: spec.parameters,
          // Annotations are the frontend's instructions to the model (mobile: "offer one recipe"); shape is the server's.
          modelParameters: annotations.length > 0 ? declaredParameters : spec.parameters,
          kind: spec.kind,
          ...withApproval(eitherApproval(spec.needsApproval ? browserApproval(spec) : undefined, agent.approvals?.get(spec.name))),
        });
      }
    }
  }
  for (const [name, approval] of agent.approvals ?? []) {
    if (tools.has(name) || allowList.has(name)) continue;
    tools.set(name, { location: "upstream", name, description: "", parameters: ANY_ARGUMENTS, modelParameters: ANY_ARGUMENTS, approval });
  }

  if (refusals.length > 0 && agent.browserToolPolicy === "strict") {
    const [first] = refusals as [Refusal];
    const message = refusals.length === 1 ? first.message : `${refusals.map((refusal) => refusal.message).join("\n")}`;
    throw new TetherError(first.code, message, { details: { refused: refusals } });
  }
  const log = refusals.map((refusal): RunLogEntry => ({
    level: "warn",
    code: "tool_dropped",
    message: refusal.message,
    details: { tool: refusal.tool, reason: refusal.code },
  }));
  return { tools, log, checker: agent.checker };
}

function serverApproval(tool: ServerTool): RunToolApproval | undefined {
  const { needsApproval } = tool;
  if (!needsApproval) return undefined;
  const fallback = defaultApproval(tool.name);
  return {
    needed: typeof needsApproval === "function" ? (args, user) => needsApproval(args, user) : () => true,
    message: tool.approvalMessage ? (args, user) => tool.approvalMessage!(args, user) : fallback.message,
    responseSchema: approvalResponseSchema(tool.approvalFields),
    apply: tool.applyApproval ? (args, answer) => tool.applyApproval!(args, answer) : fallback.apply,
  };
}

/** A declared name as errors and logs show it: a name off the allow-list may be any length. */
function shown(name: string): string {
  return name.length > 64 ? `${name.slice(0, 63)}…` : name;
}

function browserApproval(spec: BrowserToolSpec): RunToolApproval {
  const fallback = defaultApproval(spec.name);
  const { approvalMessage, needsApproval } = spec;
  return {
    ...fallback,
    ...(typeof needsApproval === "function" ? { needed: (args: unknown) => needsApproval(args) === true } : {}),
    ...(approvalMessage ? { message: (args: unknown) => approvalMessage(args) } : {}),
  };
}

/** Asks when either asks: a browser tool's own `needsApproval` and the agent's approval by name. */
function eitherApproval(first: RunToolApproval | undefined, second: RunToolApproval | undefined): RunToolApproval | undefined {
  if (!first || !second) return first ?? second;
  return {
    ...first,
    needed: (args, user) => first.needed(args, user) || second.needed(args, user),
    message: (args, user) => (first.needed(args, user) ? first : second).message(args, user),
  };
}

function withApproval(approval: RunToolApproval | undefined): { approval?: RunToolApproval } {
  return approval ? { approval } : {};
}

/** An upstream tool's arguments are the upstream's to check; Tether only needs them to be an object. */
const ANY_ARGUMENTS: JsonSchema = { type: "object" };

function defaultApproval(name: string): RunToolApproval {
  return {
    needed: () => true,
    message: (args) => `Allow ${name} with ${JSON.stringify(args)}?`,
    responseSchema: approvalResponseSchema(),
    apply: (args) => args,
  };
}
