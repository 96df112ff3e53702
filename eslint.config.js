// @ts-check
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "coverage/", ".tmp/", "test/fixtures/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // Protocol data is typed from the SDK; an `any` is a hole in that.
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      // Terminal text is made of control characters: matching them is the point.
      "no-control-regex": "off",
      // A variable read by a closure before its one assignment (a handle the cleanup needs) stays `let`.
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
    },
  },
  {
    files: ["src/ui/**/*.{ts,tsx}", "test/ui/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // The real-agent suites read raw wire JSON from agents conch does not control, after asserting its shape.
    files: ["test/agents/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);
