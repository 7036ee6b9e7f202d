// The page: the task list the server sends, the assistant's panel beside it, and the browser tool
// the assistant may call (openTask), which opens a task here and reports what really happened.
import { createAgentSession } from "@tether-agent/tether/client";
import { AssistantPanel, useBrowserTool } from "@tether-agent/tether/react";
import { useEffect, useState } from "react";
import { flushSync } from "react-dom";
import type { Task } from "../tasks.ts";
import { openTask } from "../tools.ts";

// The conversation with the server's "assistant" agent, over /api (in development Vite's dev
// server passes /api on to the Tether server: vite.config.ts). Its thread is kept across reloads:
// the page picks it up where it was, and a call this page already ran is never run again.
const THREAD_KEY = "tasks:thread";
const savedThread = localStorage.getItem(THREAD_KEY);
const threadId = savedThread ?? crypto.randomUUID();
localStorage.setItem(THREAD_KEY, threadId);
const session = createAgentSession({ api: "/api", agentId: "assistant", threadId });

export function App() {
  const [tasks, setTasks] = useState<Task[]>([]);
  const [openId, setOpenId] = useState<string>();

  useEffect(() => {
    void fetch("/api/tasks").then(async (response) => {
      if (response.ok) setTasks((await response.json()) as Task[]);
      else console.error(`The task list did not load: HTTP ${response.status}`);
    });
    // A reload: the conversation so far, a run still going, and anything still owed to it.
    if (savedThread) void session.restore();
  }, []);

  useBrowserTool(session, {
    spec: openTask,
    execute: ({ taskId }) => {
      const task = tasks.find((candidate) => candidate.id === taskId);
      if (!task) return { status: "failed", reason: "not_found", message: `No task ${taskId} on this page.` };
      flushSync(() => setOpenId(task.id)); // drawn now, so the outcome describes the page as it is
      document.getElementById(`task-${task.id}`)?.scrollIntoView({ block: "nearest" });
      return {
        status: "succeeded",
        stage: "displayed",
        message: `${task.id} “${task.title}” is open on the page.`,
      };
    },
  });

  return (
    <div className="app">
      <main>
        <h1>Tasks</h1>
        <ul className="tasks">
          {tasks.map((task) => (
            <li
              key={task.id}
              id={`task-${task.id}`}
              className="task"
              aria-current={task.id === openId ? "true" : undefined}
            >
              <button
                type="button"
                aria-expanded={task.id === openId}
                onClick={() => setOpenId(task.id === openId ? undefined : task.id)}
              >
                <span className="task__id">{task.id}</span>
                <span className="task__title">{task.title}</span>
                <span className="task__due">{task.due}</span>
              </button>
              {task.id === openId && <p className="task__notes">{task.notes}</p>}
            </li>
          ))}
        </ul>
      </main>
      <AssistantPanel session={session} title="Assistant" />
    </div>
  );
}
