/** Where the server says what happened; console by default, silent in tests. */
export interface Logger {
  info(message: string, details?: unknown): void;
  warn(message: string, details?: unknown): void;
  error(message: string, details?: unknown): void;
}

export const consoleLogger: Logger = {
  info: (message, details) => console.log(`[tether] ${message}`, ...(details === undefined ? [] : [details])),
  warn: (message, details) => console.warn(`[tether] ${message}`, ...(details === undefined ? [] : [details])),
  error: (message, details) => console.error(`[tether] ${message}`, ...(details === undefined ? [] : [details])),
};

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
