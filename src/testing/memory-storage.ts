/**
 * `sessionStorage` as a Map, for tests of the browser SDK in Node. Sharing one
 * between two journals is a reload of the tab; `overrides` make it fail.
 */
export function createMemoryStorage(overrides: Partial<Storage> = {}): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
    ...overrides,
  };
}
