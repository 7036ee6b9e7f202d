import { EventType, type BaseEvent } from "@ag-ui/core";
import { describe, expect, it } from "vitest";
import { checkPredictedState, createStatePredictor } from "./predict-state.ts";

const RULES = [{ tool: "write_document_local", argument: "document", stateKey: "document" }];

function follow(everyMs = 0) {
  const events: BaseEvent[] = [];
  const predicted: Array<[string, unknown]> = [];
  let clock = 0;
  const predictor = createStatePredictor(
    RULES,
    { emit: (event) => events.push(event), predict: (key, value) => predicted.push([key, value]) },
    { everyMs, now: () => clock },
  );
  return { predictor, events, predicted, tick: (ms: number) => (clock += ms) };
}

describe("predictive state", () => {
  it("announces the prediction as CopilotKit's PredictState event, then shows the argument growing as it streams", () => {
    const { predictor, events, predicted } = follow();
    const call = { toolCallId: "c1", toolName: "write_document_local", argumentsText: "" };
    predictor.started(call);
    expect(events).toEqual([
      { type: EventType.CUSTOM, name: "PredictState", value: [{ state_key: "document", tool: "write_document_local", tool_argument: "document" }] },
    ]);
    for (const delta of ['{"docu', 'ment":"# Dra', "gon\\n", "Once", ' upon"}']) {
      call.argumentsText += delta;
      predictor.streamed(call);
    }
    predictor.ended(call);
    // Nothing before the key arrives, each new prefix once, the escape read as JSON reads it, the end not repeated.
    expect(predicted).toEqual([
      ["document", "# Dra"],
      ["document", "# Dragon\n"],
      ["document", "# Dragon\nOnce"],
      ["document", "# Dragon\nOnce upon"],
    ]);
  });

  it("leaves other tools alone, and re-reads a long argument no more than once per interval, the complete one always", () => {
    const { predictor, events, predicted, tick } = follow(50);
    const other = { toolCallId: "c0", toolName: "get_weather", argumentsText: '{"location":"Oslo"}' };
    predictor.started(other);
    predictor.streamed(other);
    predictor.ended(other);
    expect(events).toEqual([]);
    const call = { toolCallId: "c1", toolName: "write_document_local", argumentsText: '{"document":"a' };
    predictor.streamed(call);
    call.argumentsText += "b";
    tick(10);
    predictor.streamed(call);
    call.argumentsText += "c";
    tick(45);
    predictor.streamed(call);
    call.argumentsText += 'd"}';
    predictor.ended(call);
    expect(predicted.map(([, value]) => value)).toEqual(["a", "abc", "abcd"]);
  });

  it("waits longer between predictions as the value grows, and never shows one too deep or too large to be a state", () => {
    const { predictor, predicted, tick } = follow(50);
    const long = "x".repeat(20 * 1024);
    const call = { toolCallId: "c1", toolName: "write_document_local", argumentsText: `{"document":"${long}` };
    predictor.streamed(call);
    call.argumentsText += "y";
    tick(100); // past 50 ms, not past the 250 ms a 20 KiB value waits
    predictor.streamed(call);
    tick(200);
    predictor.streamed(call);
    expect(predicted.map(([, value]) => (value as string).length)).toEqual([20 * 1024, 20 * 1024 + 1]);

    const deep = { toolCallId: "c2", toolName: "write_document_local", argumentsText: `{"document":${"[".repeat(40)}${"]".repeat(40)}}` };
    predictor.ended(deep);
    const huge = { toolCallId: "c3", toolName: "write_document_local", argumentsText: `{"document":"${"z".repeat(300 * 1024)}"}` };
    predictor.ended(huge);
    expect(predicted).toHaveLength(2);
  });

  it("predicts nothing from arguments that are not an object", () => {
    const { predictor, predicted } = follow();
    predictor.ended({ toolCallId: "c1", toolName: "write_document_local", argumentsText: "[1,2]" });
    predictor.ended({ toolCallId: "c2", toolName: "write_document_local", argumentsText: "not json" });
    expect(predicted).toEqual([]);
  });
});

describe("checkPredictedState", () => {
  const tools = new Set(["write_document_local"]);
  it("takes rules that name the agent's own tools, and refuses others in words that name the agent", () => {
    expect(checkPredictedState("docs", RULES, tools, true)).toEqual(RULES);
    expect(checkPredictedState("docs", undefined, tools, true)).toEqual([]);
    const refusal = (rules: unknown, runsModel = true) => {
      try {
        checkPredictedState("docs", rules, tools, runsModel);
      } catch (error) {
        return (error as { code: string; message: string }).code + ": " + (error as Error).message;
      }
      return "accepted";
    };
    expect(refusal([{ tool: "write_poem", argument: "poem", stateKey: "poem" }])).toBe(
      'config_invalid: Agent "docs": predictState entry 0 names the tool "write_poem", which the agent does not have.',
    );
    expect(refusal([{ tool: "write_document_local", argument: "", stateKey: "document" }])).toMatch(/entry 0 needs a tool, an argument and a stateKey/);
    expect(refusal({ tool: "write_document_local" })).toMatch(/is a list/);
    expect(refusal(RULES, false)).toMatch(/applies to a model Tether runs/);
  });
});
