// Type-aware rules for the bug classes a compiler does not catch: a promise nobody awaits or
// handles (in a server, an unhandled rejection is a crash), and a promise where a boolean or a
// void callback is expected.
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "**/dist/**",
      "node_modules/**",
      "data/**",
      "**/*.d.ts",
      "test/fixtures/installed-app/**",
      "test/fixtures/copilotkit/**",
      // Imports @vitejs/plugin-react, which this project does not install (tsconfig.json says where it is checked).
      "templates/starter/vite.config.ts",
    ],
  },
  {
    files: ["**/*.ts", "**/*.tsx"],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { "@typescript-eslint": tseslint.plugin },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_", caughtErrors: "none" },
      ],
      "@typescript-eslint/await-thenable": "error",
    },
  },
);
