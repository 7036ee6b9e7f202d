import type { ResumeEntry } from "@ag-ui/core";
import fc from "fast-check";
import { defineTool } from "@tether-agent/tether/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createScriptedApp } from "../helpers/scripted-app.ts";

type Answer = "approve" | "reject" | "cancel";
/** One client attempt: per interrupt, an answer or none; optionally a reconnect to the thread's events first. */
type Attempt = { answers: Array<Answer | null>; reconnectFirst: boolean };

const entry = (interruptId: string, answer: Answer): ResumeEntry =>
  answer === "cancel" ? { interruptId, status: "cancelled" } : { interruptId, status: "resolved", payload: { approved: answer === "approve" } };

describe("approvals under duplicate, late and conflicting answers", () => {
  it("executes each approved call exactly once and nothing else, whatever the clients send", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3 }),
        fc.array(
          fc.record({
            answers: fc.array(fc.constantFrom<Answer | null>("approve", "reject", "cancel", null), { minLength: 3, maxLength: 3 }),
            reconnectFirst: fc.boolean(),
          }),
          {
            minLength: 1,
            maxLength: 8,
          },
        ),
        async (calls, attempts: Attempt[]) => {
          const executed = new Map<number, number>();
          const tool = defineTool({
            name: "pay",
            description: "Pays an invoice.",
            parameters: z.object({ invoice: z.number() }),
            needsApproval: true,
            execute: ({ invoice }) => {
              executed.set(invoice, (executed.get(invoice) ?? 0) + 1);
              return { paid: invoice };
            },
          });
          const first = { toolCalls: Array.from({ length: calls }, (_, invoice) => ({ toolName: "pay", input: { invoice } })) };
          const app = await createScriptedApp([first, ...Array.from({ length: 20 }, () => ({ text: "ok" }))], { tools: [tool] });
          const opened = await app.run({ threadId: "t", runId: "r0", messages: [{ id: "u", role: "user", content: "pay" }] });
          const interrupts = (opened.at(-1)!.data.outcome.interrupts as Array<{ id: string }>).map((interrupt) => interrupt.id);

          for (const [index, attempt] of attempts.entries()) {
            if (attempt.reconnectFirst) await (await app.tether.app.request("/api/threads/t/events", { headers: { "x-user": "kim" } })).text();
            const resume = interrupts.flatMap((id, at) => (attempt.answers[at] ? [entry(id, attempt.answers[at]!)] : []));
            const response = await app.post({ threadId: "t", runId: `r${index + 1}`, messages: (await app.store.getMessages("t")) as never, resume });
            // Accepted (a new run, or the same result again) or refused with a code; never a server error.
            expect([200, 400, 404, 409]).toContain(response.status);
            await response.text();
          }

          // The property: each call ran once if and only if the answer that was recorded for it approved it.
          for (const [invoice, id] of interrupts.entries()) {
            const recorded = await app.store.getInterrupt(id);
            const approved = recorded?.status === "resolved" && (recorded.answer?.payload as { approved?: boolean } | undefined)?.approved === true;
            expect(executed.get(invoice) ?? 0).toBe(approved ? 1 : 0);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
