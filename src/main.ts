import { Plugin } from "obsidian";

/** Agent Memory plugin entry: wires settings, adapters, commands and views (STYLE: main.ts wires). */
export default class AgentMemoryPlugin extends Plugin {
  override async onload(): Promise<void> {
    // Filled in by the foundation issue.
  }
}
