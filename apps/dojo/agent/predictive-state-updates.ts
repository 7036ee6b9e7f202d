import { defineState, defineTool, type Playbook } from "@tether-agent/tether/server";
import { z } from "zod";
import { confirmChanges, writeDocument } from "./browser-tools.ts";
import { stateFromPrompt } from "./state-in-prompt.ts";

export const documentState = z.object({ document: z.string().max(100_000) });
export const sharedDocument = defineState(documentState, { initial: { document: "" } });

/**
 * Writes the document. Its `document` argument is predicted into state while
 * the model streams it (the agent's `predictState`), so the page's editor
 * shows the text growing; the call itself stores the final text.
 */
export const writeDocumentLocal = defineTool({
  name: "write_document_local",
  description:
    "Write a document. Use markdown formatting to format the document. It's good to format the document extensively so it's easy to read. " +
    "You MUST write the full document, even when changing only a few words. When making edits to the document, try to make them minimal - do not change every word.",
  parameters: z.object({ document: z.string().max(100_000).describe("The document to write") }),
  execute: ({ document }, context) => {
    sharedDocument.in(context).set({ document });
    return { written: true, characters: document.length };
  },
});

// The page's tool lives in browser-tools.ts (the /dojo/ pages bundle it); still exported here, beside its agent.
export { confirmChanges, writeDocument };

export const predictiveStateUpdates = {
  id: "predictive_state_updates",
  description: "Writes a document the page shows growing as it streams, then asks the person to accept or reject it.",
  instructions:
    "You write and edit the document in the shared state. To change it, call write_document_local with the whole document, then call confirm_changes so the person can accept or reject it. " +
    "If they reject it, say the change was not kept.",
  tools: [writeDocumentLocal],
  browserTools: [confirmChanges, writeDocument],
  state: sharedDocument,
  predictState: [{ tool: "write_document_local", argument: "document", stateKey: "document" }],
  welcome: { greeting: "How can I help you today?", suggestions: ["Write a pirate story", "Give me a story for a dragon called Atlantis in document"] },
};

const story = (name: string) =>
  [
    `# The Dragon ${name}`,
    "",
    `High above the misty valley lived a dragon called ${name}. Her scales shone like wet slate, and her wings were wide enough to shade the whole village at noon.`,
    "",
    `Every spring the children climbed the hill with baskets of apples, and every spring ${name} pretended to be fierce before eating them one by one, very politely.`,
    "",
    `One winter the river froze and the mill stopped. ${name} breathed slow, warm fire along the ice until the water ran again, and the village has left apples on the hill ever since.`,
  ].join("\n");

/** The offline model for predictive_state_updates: writes the story into the document, then asks for confirmation. */
export const predictiveStateUpdatesPlaybook: Playbook = {
  name: "predictive_state_updates",
  respond(conversation) {
    const [latest] = conversation.results.slice(-1);
    if (latest?.toolName === "write_document_local") {
      if (latest.isError) return { text: "I couldn't write the document." };
      return conversation.tools.includes("confirm_changes")
        ? { toolCalls: [{ toolName: "confirm_changes", input: {} }] }
        : { text: "The document is written; this page has no way to confirm it, so it stands." };
    }
    if (latest?.toolName === "confirm_changes") {
      const output = latest.output as { accepted?: boolean; data?: { accepted?: boolean } } | undefined;
      const accepted = output?.accepted ?? output?.data?.accepted;
      return { text: accepted === true ? "Done! The changes are kept." : "Understood: the changes were not kept." };
    }
    const said = conversation.userText;
    const renamed = /change (?:the )?dragon(?:'s)? name to ([A-Z][\w-]*)/i.exec(said);
    const current = stateFromPrompt(conversation.system, documentState)?.document;
    if (renamed && current) {
      const old = /dragon called ([A-Z][\w-]*)/.exec(current)?.[1];
      if (old) return write(current.split(old).join(renamed[1]!));
    }
    const named = /dragon (?:called|named) ([A-Z][\w-]*)/i.exec(said);
    if (named) return write(story(named[1]!));
    if (/story|document|write/i.test(said)) return write(story("Ember"));
    return { text: 'Ask me to write something ("Give me a story for a dragon called Atlantis in document") and watch it appear in the editor.' };
  },
};

const write = (document: string) => ({ toolCalls: [{ toolName: "write_document_local", input: { document } }] });
