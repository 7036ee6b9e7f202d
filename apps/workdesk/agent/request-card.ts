import type { WorkRequest } from "./work-requests.ts";

/**
 * A work request as an A2UI v0.9 surface (the basic catalog): its fields,
 * bound to the data model, and two buttons whose actions start the next run,
 * "Open detail" (a navigation) and "Close as fixed" (which asks for approval).
 * The offline playbook renders it for "show R-1042 as a card"; a real model
 * writes its own, and Tether validates either before anyone sees it.
 */
export function requestCard(request: Pick<WorkRequest, "id" | "title" | "status" | "priority" | "requester">) {
  const actions = [
    { id: "open", label: "Open detail", name: "open_detail", context: { requestId: { path: "/request/id" } } },
    ...(request.status === "closed"
      ? []
      : [{ id: "close", label: "Close as fixed", name: "close_request", context: { requestId: { path: "/request/id" }, resolution: "fixed" } }]),
  ];
  return {
    surfaceId: `request-${request.id}`,
    components: [
      { id: "root", component: "Card", child: "body" },
      { id: "body", component: "Column", children: ["heading", "title", "facts", "actions"] },
      { id: "heading", component: "Text", text: { path: "/request/id" }, variant: "caption" },
      { id: "title", component: "Text", text: { path: "/request/title" }, variant: "h3" },
      { id: "facts", component: "Row", children: ["status", "priority", "requester"] },
      { id: "status", component: "Text", text: { path: "/request/status" } },
      { id: "priority", component: "Text", text: { path: "/request/priority" } },
      { id: "requester", component: "Text", text: { path: "/request/requester" } },
      { id: "actions", component: "Row", children: actions.map((action) => action.id) },
      ...actions.flatMap((action) => [
        { id: action.id, component: "Button", child: `${action.id}-label`, action: { event: { name: action.name, context: action.context } } },
        { id: `${action.id}-label`, component: "Text", text: action.label },
      ]),
    ],
    data: {
      request: {
        id: request.id,
        title: request.title,
        status: request.status.replace("_", " "),
        priority: `${request.priority} priority`,
        requester: request.requester,
      },
    },
  };
}
