import type { WorkRequest, WorkRequestStatus } from "./work-requests.ts";

export interface WorkRequestQuery {
  /** Words that must all appear in the id, title, requester, status or priority, in any order and case. */
  query?: string;
  status?: WorkRequestStatus;
}

/**
 * What a close did. A request that was already closed stays as it was (its
 * first resolution and time are kept), so a repeated ask or a second approval
 * can never close it "again".
 */
export type CloseWorkRequestResult =
  | { outcome: "closed"; request: WorkRequest }
  | { outcome: "already_closed"; request: WorkRequest }
  /** No such request in the organisation: another organisation's looks the same. */
  | { outcome: "not_found" };

/**
 * The Workdesk's records. Every read and write takes the caller's
 * organisation: there is no way to reach a request outside it. Results are
 * copies; changing one changes no record.
 */
export interface WorkRequestRepository {
  list(orgScope: string, filter?: WorkRequestQuery): Promise<WorkRequest[]>;
  get(orgScope: string, id: string): Promise<WorkRequest | undefined>;
  /** Closes a request with a resolution, atomically: of two closes of one request, exactly one changes it. */
  close(orgScope: string, id: string, resolution: string, now?: Date): Promise<CloseWorkRequestResult>;
  /**
   * `get` without waiting, only for the library's approval hooks (`authorize`,
   * `needsApproval`, `approvalMessage`), which are synchronous and cannot
   * await. A reader never waits for a writer, so it fails only when storage is
   * in trouble. Drop it once those hooks may return a promise.
   */
  getSync(orgScope: string, id: string): WorkRequest | undefined;
}
