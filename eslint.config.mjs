// The linter `npm run check` runs (with prettier for the format and tsc for the types): typescript-eslint's
// recommended rules, without type information so the gate stays fast. Rules the code base decides otherwise are
// turned off here with the reason.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: ["dist/**", "node_modules/**", "sdk/go/**", "sdk/python/**", ".tools/**", "test/.work/**", "**/*.js", "**/*.mjs", "**/*.cjs"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // A serialized dynamic provider captures only its type token and requires the installed package at call time
    // (docs/contributing.md): these modules load what they serve with require, on purpose.
    files: ["provider/door.ts", "provider/dynamic.ts", "provider/plugin.ts", "provider/plugin-server.ts", "sdk/**/*.ts", "test/**/*.ts"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    rules: {
      // Control characters are what some checks look for (a name, a URL, a record's text must not hold them).
      "no-control-regex": "off",
      // Bags of inputs and outputs from the engine are untyped by nature (Record<string, any>); zod types them at check.
      "@typescript-eslint/no-explicit-any": "off",
      // tsc's noUnusedLocals holds imports and locals; a parameter or a destructured name that is left out starts with _.
      "@typescript-eslint/no-unused-vars": ["error", { args: "none", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
);
