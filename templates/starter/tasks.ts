// The app's own data: a task list. In your app this is your database. The server reads it (the
// findTasks tool and the /api/tasks route in server.ts); the page shows what the server sends.

export interface Task {
  id: string;
  title: string;
  due: string;
  notes: string;
}

export const TASKS: Task[] = [
  {
    id: "T-1",
    title: "Book the team offsite",
    due: "Friday",
    notes: "Twelve people, somewhere a train reaches.",
  },
  {
    id: "T-2",
    title: "Send the March invoice",
    due: "Today",
    notes: "To Acme Corp: 40 hours at the agreed rate.",
  },
  {
    id: "T-3",
    title: "Review the onboarding guide",
    due: "Next week",
    notes: "Check that the setup steps still work.",
  },
  {
    id: "T-4",
    title: "Renew the domain name",
    due: "In two weeks",
    notes: "It renews itself unless the card has expired.",
  },
];

/** The tasks whose title holds every word of the query, in any case. */
export function tasksMatching(query: string): Task[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return TASKS.filter((task) => words.every((word) => task.title.toLowerCase().includes(word)));
}
