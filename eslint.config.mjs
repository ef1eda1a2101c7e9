import { defineConfig } from "eslint/config";
import obsidianmd from "eslint-plugin-obsidianmd";
import globals from "globals";

export default defineConfig([
  { ignores: ["node_modules/", "main.js", "dist/", "coverage/", "bench/results/", "examples/", "docs/"] },
  ...obsidianmd.configs.recommended,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ["eslint.config.mjs", "esbuild.config.mjs", "scripts/*.mjs"],
        },
      },
    },
  },
  {
    // Code that runs on Node, never inside Obsidian: the CLI, tests, benchmarks, build scripts.
    // The mobile-only rules (no Node built-ins, configDir instead of ".obsidian") do not apply there.
    files: ["src/cli/**", "test/**", "bench/**", "scripts/**", "*.config.*", "*.mjs"],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "obsidianmd/no-nodejs-modules": "off",
      "obsidianmd/hardcoded-config-path": "off",
      "no-undef": "off",
      "no-restricted-globals": "off",
      "obsidianmd/no-global-this": "off",
      "obsidianmd/prefer-window-timers": "off",
      "import/no-nodejs-modules": "off",
    },
  },
]);
