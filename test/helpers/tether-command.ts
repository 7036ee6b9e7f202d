/**
 * Node arguments that run the `tether` command from source: the package's
 * bin runs the compiled copy in dist/, which only a pack builds.
 */
export const TETHER_COMMAND = ["--conditions=tether-source", "--import", "tsx", "src/cli/tether.ts"];
