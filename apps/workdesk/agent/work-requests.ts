/** A work request: a repair, a piece of equipment, a facilities job. */
export interface WorkRequest {
  id: string;
  orgScope: string;
  title: string;
  status: WorkRequestStatus;
  priority: "low" | "medium" | "high";
  requester: string;
  createdAt: string;
  updatedAt: string;
  /** How it was resolved; set when it is closed through the Workdesk. */
  resolution?: string;
  /** When it was closed through the Workdesk: the first close, never moved by a repeated one. */
  closedAt?: string;
}

export const WORK_REQUEST_STATUSES = ["open", "in_progress", "waiting_approval", "closed"] as const;
export type WorkRequestStatus = (typeof WORK_REQUEST_STATUSES)[number];

const TITLES = [
  "Fix leaking tap in 2nd floor kitchen",
  "Replace flickering lights in meeting room B",
  "Order ergonomic chair for new hire",
  "Repair jammed printer on 3rd floor",
  "Install second monitor at desk 14",
  "Unblock drain in staff shower",
  "Service air conditioning in server room",
  "Replace cracked window in lobby",
  "Move filing cabinets to storage",
  "Fix squeaking door at loading dock",
  "Restock first aid kit in workshop",
  "Calibrate conference room projector",
  "Repaint scuffed corridor walls",
  "Fix wobbly table in canteen",
  "Set up desk phone for reception",
];
const ORG_01_PEOPLE = ["kim", "lee", "admin", "jung", "han"];
const ORG_02_PEOPLE = ["park", "choi", "yoon"];

/**
 * R-1001 … R-1060 across both organisations, the same on every start. R-1042
 * is the story's request: the broken badge reader at Gate 3, in ORG-01.
 */
export function seedWorkRequests(): WorkRequest[] {
  const requests: WorkRequest[] = [];
  for (let index = 0; index < 60; index++) {
    const number = 1001 + index;
    const orgScope = index % 3 === 2 ? "ORG-02" : "ORG-01";
    const people = orgScope === "ORG-01" ? ORG_01_PEOPLE : ORG_02_PEOPLE;
    const created = new Date(Date.UTC(2026, 8, 1 + index, 9, (index * 7) % 60));
    const updated = new Date(created.getTime() + ((index % 5) + 1) * 86_400_000);
    requests.push({
      id: `R-${number}`,
      orgScope,
      title: TITLES[(index * 7) % TITLES.length]!,
      status: WORK_REQUEST_STATUSES[(index * 5 + 1) % WORK_REQUEST_STATUSES.length]!,
      priority: (["low", "medium", "high"] as const)[(index * 2) % 3]!,
      // Each organisation's requests rotate through its own people, so every demo user has some.
      requester: people[Math.floor(index / 3) % people.length]!,
      createdAt: created.toISOString(),
      updatedAt: updated.toISOString(),
    });
  }
  const story = requests.find((request) => request.id === "R-1042")!;
  Object.assign(story, { orgScope: "ORG-01", title: "Replace broken badge reader at Gate 3", status: "open", priority: "high", requester: "kim" });
  return requests;
}
