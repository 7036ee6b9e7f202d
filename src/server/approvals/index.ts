/**
 * Approvals: asking before a tool call runs, checking a resume, applying the answers. This folder's
 * entry file: other folders import it, never its modules.
 *
 * @module
 */
export { applyAnswers } from "./apply-answers.ts";
export { askApproval } from "./ask-approval.ts";
export { checkResume, type ResumeCheck } from "./check-resume.ts";
export { grantContent } from "./grant.ts";
export { createCallDecisions, type DecideCall } from "./decide-call.ts";
export { repeatedAnswersRun } from "./repeated-answers.ts";
