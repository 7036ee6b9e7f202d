/**
 * Serving a fetch handler (`tether.app`) on Node. Needs the optional peer
 * `@hono/node-server`, 1.19 or 2.
 *
 * @module
 */
export { listen, type ListenOptions, type Listening } from "./listen.ts";
