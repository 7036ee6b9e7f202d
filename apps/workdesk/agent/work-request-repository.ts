import { seedWorkRequests, type WorkRequest, type WorkRequestStatus } from "./work-requests.ts";

export interface WorkRequestQuery {
  query?: string;
  status?: WorkRequestStatus;
}

/**
 * The Workdesk's records. Every read takes the caller's organisation: there is
 * no way to ask for a request outside it.
 */
export interface WorkRequestRepository {
  list(orgScope: string, filter?: WorkRequestQuery): WorkRequest[];
  get(orgScope: string, id: string): WorkRequest | undefined;
  /** Closes a request of the organisation with a resolution; the closed request, or undefined if there is none. */
  close(orgScope: string, id: string, resolution: string, now?: Date): WorkRequest | undefined;
}

export function createWorkRequestRepository(requests: WorkRequest[] = seedWorkRequests()): WorkRequestRepository {
  const find = (orgScope: string, id: string) => requests.find((candidate) => candidate.id === id.toUpperCase() && candidate.orgScope === orgScope);
  return {
    list(orgScope, filter = {}) {
      const words = tokenize(filter.query ?? "");
      return requests
        .filter((request) => request.orgScope === orgScope)
        .filter((request) => !filter.status || request.status === filter.status)
        .filter((request) => {
          const haystack = `${request.id} ${request.title} ${request.requester} ${request.status.replace("_", " ")} ${request.priority}`.toLowerCase();
          return words.every((word) => haystack.includes(word));
        })
        .map((request) => ({ ...request }));
    },
    get(orgScope, id) {
      const request = find(orgScope, id);
      return request && { ...request };
    },
    close(orgScope, id, resolution, now = new Date()) {
      const request = find(orgScope, id);
      if (!request) return undefined;
      Object.assign(request, { status: "closed", resolution, updatedAt: now.toISOString() });
      return { ...request };
    },
  };
}

function tokenize(text: string): string[] {
  return text.toLowerCase().split(/[^a-z0-9-]+/).filter((word) => word.length > 0);
}
