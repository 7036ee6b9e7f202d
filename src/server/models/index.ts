/**
 * Model helpers: the fetch a provider SDK is given. This folder's entry file: other folders import it,
 * never its modules.
 *
 * @module
 */
export { providerFetch } from "./provider-fetch.ts";
