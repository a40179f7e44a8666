// ESLint 9 flat config: typescript-eslint, React hooks, jsx-a11y, and the layering rules of decisions 0004 and
// 0008 (docs/decisions/0008-typed-sql-and-layers.md), which `npm run lint` checks so the layers hold by a check,
// not by intention. Type-aware rules are off on purpose: they need the whole program and are slow on small CI
// machines; `tsc --noEmit` already runs.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import jsxA11y from "eslint-plugin-jsx-a11y";
import globals from "globals";

/** Relative or `~/` imports that reach a top-level folder, whatever the importing file's depth. */
const into = (folder) => `^(?:(?:\\.\\./)+|~/)${folder}`;

const TESTS = ["**/*.test.ts", "**/*.test.tsx", "tests/**"];

const LAYER = {
  appToServer: { regex: `^(?:\\.\\./)+server/`, message: "app/ may not import server/ (decision 0008): move the shared code to core/commerce or core/domain." },
  serverToApp: {
    regex: `${into("app/")}|^~/`,
    message: "server/ may not import app/ (decision 0008), except the fragment renderers listed in eslint.config.js.",
  },
  browserToServerOnlyCore: {
    regex: `^(?:\\.\\./)+core/(?!domain/|config/(?!.*\\.server))`,
    message: "Browser code may import core/domain and core/config only (decision 0004); data comes from a loader in a sibling *.server.ts.",
  },
  browserToServerModule: { regex: `\\.server(?:\\.tsx?)?$`, message: "A browser module may not import a .server module (decision 0008)." },
  browserToNode: { regex: `^node:`, message: "Browser code may not import Node built-ins: name the module *.server.ts." },
};

/**
 * Server modules that render app components into wc-ajax fragments (docs/contract/wire.md §1.4): they may import the one
 * door app/components/fragments.tsx (pure renderers) and app/lib/listing-params.ts (which addresses are listings), nothing else of app/.
 */
const FRAGMENT_RENDERERS = ["server/features/cart.ts", "server/features/checkout.ts", "server/features/catalog.ts"];

/** Statements written as strings: SQL belongs in core/db (decision 0008). Upper-case keywords only, so English prose passes. */
const SQL = String.raw`/\b(SELECT\s[\s\S]*\bFROM\b|INSERT\s+INTO\b|UPDATE\s+[\w".]+\s+SET\b|DELETE\s+FROM\b|WITH\s+\w+\s+AS\s*\()/`;
const SQL_MESSAGE = "SQL outside core/db: write it as a typed repository function in core/db/repositories (decision 0008).";

export default tseslint.config(
  {
    ignores: ["node_modules/**", "build/**", "build-*/**", "data/**", "tmp/**", ".react-router/**", "test-results/**", "bench/results/**", "core/db/schema.ts"],
  },
  { linterOptions: { reportUnusedDisableDirectives: "error" } },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
    },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    ...reactHooks.configs.flat.recommended,
  },
  {
    files: ["app/**/*.tsx"],
    ...jsxA11y.flatConfigs.recommended,
    languageOptions: { ...jsxA11y.flatConfigs.recommended.languageOptions, globals: { ...globals.browser, ...globals.node } },
  },

  // Layers. Each block restates the whole rule: ESLint replaces, not merges, a rule's options between blocks.
  {
    files: ["app/**/*.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { patterns: [LAYER.appToServer] }] },
  },
  {
    // Browser code: every app module except *.server.* and the server entry. Route modules may import their sibling
    // *.server.ts (React Router removes those imports with the loader and action), so they get their own block.
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/**/*.server.{ts,tsx}", "app/entry.server.tsx", "app/root.tsx", "app/routes/**", ...TESTS],
    rules: {
      "no-restricted-imports": ["error", { patterns: [LAYER.appToServer, LAYER.browserToServerOnlyCore, LAYER.browserToServerModule, LAYER.browserToNode] }],
    },
  },
  {
    files: ["app/root.tsx", "app/routes/**/*.{ts,tsx}"],
    ignores: ["app/routes/**/*.server.{ts,tsx}", ...TESTS],
    rules: { "no-restricted-imports": ["error", { patterns: [LAYER.appToServer, LAYER.browserToServerOnlyCore, LAYER.browserToNode] }] },
  },
  {
    files: ["server/**/*.ts"],
    ignores: FRAGMENT_RENDERERS,
    rules: { "no-restricted-imports": ["error", { patterns: [LAYER.serverToApp] }] },
  },
  {
    files: FRAGMENT_RENDERERS,
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { regex: `${into("app/(?!components/fragments\\.tsx$|lib/listing-params\\.ts$)")}`, message: LAYER.serverToApp.message },
            {
              regex: `${into("app/")}.*\\.server(?:\\.tsx?)?$`,
              message: "A fragment renderer may import app components, not app loaders (*.server.ts): call the use case in core/commerce.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["**/*.{ts,tsx}"],
    ignores: ["core/db/**", ...TESTS, "bench/**"], // benchmarks seed their large catalogues by hand
    rules: {
      "no-restricted-syntax": [
        "error",
        { selector: `Literal[value=${SQL}]`, message: SQL_MESSAGE },
        { selector: `TemplateElement[value.raw=${SQL}]`, message: SQL_MESSAGE },
      ],
    },
  },
  {
    files: ["**/*.{js,mjs}"],
    languageOptions: { globals: { ...globals.node } },
  },
);
