/**
 * Building blocks of the settings tab: each control edits one value, validates the whole settings
 * object with the zod schema (src/core/settings.ts) before saving, and shows the reason under the
 * control when the value is refused, so an invalid value never reaches `data.json`.
 */
import { SecretComponent, Setting, type App } from "obsidian";
import { parseSettings, type Settings } from "../../core/settings";
import { err, type Result } from "../../core/util/result";

/** What every settings section gets. */
export interface SectionContext {
  app: App;
  containerEl: HTMLElement;
  /** The current settings; read-only here, change them through {@link SectionContext.update}. */
  settings(): Settings;
  /**
   * Applies `mutate` to a copy of the settings, validates the copy and saves it.
   * @returns `null` when saved, else why the value was refused (nothing is saved then).
   */
  update(mutate: (draft: Settings) => void): Promise<string | null>;
  /** Re-renders the whole tab (after a change that shows or hides other controls). */
  redisplay(): void;
  /** Agents discovered from the folders under the agents folder (default agent included). */
  agents: string[];
}

/**
 * Validates `draft` with the settings schema. Returns the parsed settings, or the reason when the
 * schema refuses it (parseSettings falls back to defaults in that case; we must not save those).
 */
export function validateSettings(draft: Settings): Result<Settings> {
  const parsed = parseSettings(draft);
  return parsed.ok ? parsed : err(parsed.error.message);
}

interface ControlSpec<T> {
  name: string;
  desc: string;
  get: (s: Settings) => T;
  set: (s: Settings, value: T) => void;
  placeholder?: string;
}

/** Shows or clears the refusal reason under a setting. */
function showError(setting: Setting, error: string | null): void {
  setting.settingEl.toggleClass("am-setting-invalid", error !== null);
  const existing = setting.descEl.querySelector(".am-setting-error");
  existing?.remove();
  if (error) setting.descEl.createDiv({ cls: "am-setting-error", text: error });
}

async function commit(
  sc: SectionContext,
  setting: Setting,
  mutate: (s: Settings) => void,
): Promise<void> {
  showError(setting, await sc.update(mutate));
}

/** A one-line text setting. */
export function textSetting(sc: SectionContext, spec: ControlSpec<string>): Setting {
  const setting = new Setting(sc.containerEl).setName(spec.name).setDesc(spec.desc);
  setting.addText((text) => {
    text.setValue(spec.get(sc.settings()));
    if (spec.placeholder) text.setPlaceholder(spec.placeholder);
    text.onChange((value) => commit(sc, setting, (s) => spec.set(s, value.trim())));
  });
  return setting;
}

/**
 * A secret setting: the person picks a secret of Obsidian's secret storage with `SecretComponent`,
 * and the settings keep only its name (docs/architecture.md, "Invariants").
 */
export function secretSetting(sc: SectionContext, spec: ControlSpec<string>): Setting {
  const setting = new Setting(sc.containerEl).setName(spec.name).setDesc(spec.desc);
  setting.addComponent((el) =>
    new SecretComponent(sc.app, el)
      .setValue(spec.get(sc.settings()))
      .onChange((name) => commit(sc, setting, (s) => spec.set(s, name))),
  );
  return setting;
}

/**
 * A number setting. `scale` converts between the stored unit and the unit shown (e.g. 1000 to show
 * seconds for a value stored in milliseconds).
 */
export function numberSetting(
  sc: SectionContext,
  spec: ControlSpec<number> & { scale?: number },
): Setting {
  const scale = spec.scale ?? 1;
  const setting = new Setting(sc.containerEl).setName(spec.name).setDesc(spec.desc);
  setting.addText((text) => {
    text.inputEl.type = "number";
    text.setValue(String(spec.get(sc.settings()) / scale));
    text.onChange(async (value) => {
      const n = Number(value);
      if (value.trim() === "" || !Number.isFinite(n)) {
        showError(setting, "Enter a number.");
        return;
      }
      await commit(sc, setting, (s) => spec.set(s, Math.round(n * scale * 1e6) / 1e6));
    });
  });
  return setting;
}

/** A comma-separated list setting (empty entries dropped). */
export function listSetting(sc: SectionContext, spec: ControlSpec<string[]>): Setting {
  const setting = new Setting(sc.containerEl).setName(spec.name).setDesc(spec.desc);
  setting.addText((text) => {
    text.setValue(spec.get(sc.settings()).join(", "));
    if (spec.placeholder) text.setPlaceholder(spec.placeholder);
    text.onChange((value) =>
      commit(sc, setting, (s) =>
        spec.set(
          s,
          value
            .split(",")
            .map((v) => v.trim())
            .filter((v) => v !== ""),
        ),
      ),
    );
  });
  return setting;
}

/** An on/off setting. `redisplay` re-renders the tab after a change (for dependent controls). */
export function toggleSetting(
  sc: SectionContext,
  spec: ControlSpec<boolean> & { redisplay?: boolean },
): Setting {
  const setting = new Setting(sc.containerEl).setName(spec.name).setDesc(spec.desc);
  setting.addToggle((toggle) => {
    toggle.setValue(spec.get(sc.settings()));
    toggle.onChange(async (value) => {
      await commit(sc, setting, (s) => spec.set(s, value));
      if (spec.redisplay) sc.redisplay();
    });
  });
  return setting;
}

/** A choice among fixed options (`value → label`); the current value is kept as an option. */
export function dropdownSetting(
  sc: SectionContext,
  spec: ControlSpec<string> & { options: Record<string, string> },
): Setting {
  const setting = new Setting(sc.containerEl).setName(spec.name).setDesc(spec.desc);
  setting.addDropdown((dropdown) => {
    const current = spec.get(sc.settings());
    dropdown.addOptions(spec.options);
    if (!(current in spec.options)) dropdown.addOption(current, current);
    dropdown.setValue(current);
    dropdown.onChange((value) => commit(sc, setting, (s) => spec.set(s, value)));
  });
  return setting;
}

/** A section heading (`new Setting(el).setName(…).setHeading()`). */
export function heading(sc: SectionContext, name: string, desc?: string): Setting {
  const setting = new Setting(sc.containerEl).setName(name).setHeading();
  if (desc) setting.setDesc(desc);
  return setting;
}
