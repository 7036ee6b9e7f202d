/**
 * The offline playbook model: scripted conversations that play as a language model. This folder's
 * entry file: other folders import it, never its modules.
 *
 * @module
 */
export type { PlaybookConversation, PlaybookResult, PlaybookTool } from "./conversation.ts";
export { PLAYBOOK_PROVIDER, createPlaybookModel, type Playbook, type PlaybookModelOptions } from "./playbook-model.ts";
export { turnParts, type ScriptedTurn, type TurnPartsOptions } from "./turn-parts.ts";
