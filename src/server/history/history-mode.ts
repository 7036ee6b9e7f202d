/**
 * `server`: the stored thread is the reference; the client may send the whole
 * history or only its new messages. `client`: stateless, the request's history
 * is used as sent.
 */
export type HistoryMode = "server" | "client";
