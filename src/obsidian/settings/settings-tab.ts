/**
 * The settings tab (docs/plugin.md, "Settings"): one function per section, each with a
 * `setHeading()` heading. Values are validated with the zod schema before they are saved; the API
 * key is kept in secret storage, so `data.json` holds only its name.
 */
import { PluginSettingTab, type App, type Plugin } from "obsidian";
import type { Settings } from "../../core/settings";
import { discoverAgents, type PluginContext } from "../context";
import { validateSettings, type SectionContext } from "./controls";
import { extractionSection, destinationsSection } from "./extraction-section";
import { journalSection } from "./journal-section";
import { embeddingsSection } from "./embeddings-section";
import { llmSection } from "./llm-section";
import { sessionsSection } from "./sessions-section";
import { agentsSection, memorySection } from "./memory-section";
import { healthSection, searchSection } from "./search-section";
import { watchSection } from "./watch-section";

/** Host hooks the tab needs besides the context: replacing the settings object after validation. */
export interface SettingsHost {
  ctx: PluginContext;
  /** Replaces the plugin's settings with a validated object and saves it. */
  replaceSettings(next: Settings): Promise<void>;
}

export class AgentMemorySettingTab extends PluginSettingTab {
  /** Increments on each render, so a slow agent lookup from an older render is ignored. */
  private renderId = 0;

  constructor(
    app: App,
    plugin: Plugin,
    private readonly host: SettingsHost,
  ) {
    super(app, plugin);
    this.icon = "brain";
  }

  override display(): void {
    const id = ++this.renderId;
    void discoverAgents(this.host.ctx).then((agents) => {
      if (id === this.renderId) this.render(agents);
    });
  }

  private render(agents: string[]): void {
    const { containerEl } = this;
    containerEl.empty();
    containerEl.addClass("am-settings");
    const sc: SectionContext = {
      app: this.app,
      containerEl,
      agents,
      settings: () => this.host.ctx.settings(),
      update: async (mutate) => {
        const draft = structuredClone(this.host.ctx.settings());
        mutate(draft);
        const checked = validateSettings(draft);
        if (!checked.ok) return checked.error;
        await this.host.replaceSettings(checked.value);
        return null;
      },
      redisplay: () => this.display(),
    };
    memorySection(sc);
    agentsSection(sc);
    journalSection(sc);
    llmSection(sc);
    extractionSection(sc);
    destinationsSection(sc);
    watchSection(sc);
    sessionsSection(sc);
    searchSection(sc);
    embeddingsSection(sc);
    healthSection(sc);
  }
}
