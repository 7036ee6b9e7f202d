import { BaseTool, type RunAsyncToolRequest } from "@google/adk";
import type { RunTool } from "../../tools/index.ts";

type Declaration = NonNullable<ReturnType<BaseTool["_getDeclaration"]>>;

/**
 * A run's allow-listed browser tool as ADK sees it: a declaration, nothing that runs on the server.
 * Long-running, so ADK leaves the call without a response; and a call to it ends the invocation,
 * because ADK would otherwise call the model again with a call and no response (a provider refuses
 * that turn). The browser's outcome comes back as the call's result on the run's next step.
 * Not ADK's `LongRunningFunctionTool`: it adds its own note to the description, which is the
 * client's words to the model.
 */
export class BrowserTool extends BaseTool {
  constructor(private readonly tool: RunTool) {
    super({ name: tool.name, description: tool.description, isLongRunning: true });
  }

  override _getDeclaration(): Declaration {
    return { name: this.tool.name, description: this.tool.description, parametersJsonSchema: this.tool.modelParameters };
  }

  override async runAsync({ toolContext }: RunAsyncToolRequest): Promise<undefined> {
    toolContext.invocationContext.endInvocation = true;
    return undefined;
  }
}
