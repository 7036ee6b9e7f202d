/**
 * Serving a fetch handler (`tether.app`) on Node. Needs the optional peer
 * `@hono/node-server`.
 *
 * @module
 */
export { listen, type Listening } from "./listen.ts";
