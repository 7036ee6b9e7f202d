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
}

export function createWorkRequestRepository(requests: WorkRequest[] = seedWorkRequests()): WorkRequestRepository {
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
      const request = requests.find((candidate) => candidate.id === id.toUpperCase() && candidate.orgScope === orgScope);
      return request && { ...request };
    },
  };
}

function tokenize(text: string): string[] {
  return text.toLowerCase().split(/[^a-z0-9-]+/).filter((word) => word.length > 0);
}
