/**
 * Settings: where memory lives (docs/architecture.md, "The five layers": every folder name is a
 * setting) and which agents exist.
 */
import { Setting } from "obsidian";
import { TRACKER_KINDS } from "../../core/settings";
import {
  dropdownSetting,
  heading,
  listSetting,
  textSetting,
  type SectionContext,
} from "./controls";

/** Memory root, layer folders, knowledge categories and isolated zones. */
export function memorySection(sc: SectionContext): void {
  heading(
    sc,
    "Memory folders",
    "Where each layer of memory lives in the vault. Changing a name does not move existing notes.",
  );
  textSetting(sc, {
    name: "Memory root",
    desc: "Folder holding all memory. Leave empty to use the whole vault.",
    placeholder: "Memory",
    get: (s) => s.memoryRoot,
    set: (s, v) => (s.memoryRoot = v),
  });
  const folders = [
    ["Agents folder", "One subfolder per agent; a person is an agent too.", "agentsFolder"],
    ["Journal folder", "Inside each agent's folder: one note per day.", "journalFolder"],
    [
      "Trackers folder",
      "Inside each agent's folder: tasks, goals, reviews, proposals, questions, decisions.",
      "trackersFolder",
    ],
    [
      "Knowledge folder",
      "Inside each agent's folder: one note per topic, by category.",
      "knowledgeFolder",
    ],
    ["Library folder", "Under the memory root: knowledge shared by all agents.", "libraryFolder"],
  ] as const;
  for (const [name, desc, key] of folders) {
    textSetting(sc, { name, desc, get: (s) => s[key], set: (s, v) => (s[key] = v) });
  }
  listSetting(sc, {
    name: "Knowledge categories",
    desc: "Subfolders of the knowledge folder, comma-separated. New topics go to the first one.",
    get: (s) => s.knowledgeCategories,
    set: (s, v) => (s.knowledgeCategories = v),
  });
  listSetting(sc, {
    name: "Isolated zones",
    desc: "Folders under the memory root that are searched only when asked for by name, never mixed into other results.",
    get: (s) => s.isolatedZones,
    set: (s, v) => (s.isolatedZones = v),
  });
  new Setting(sc.containerEl)
    .setName("Tracker notes")
    .setDesc("File names of the six tracker notes in each agent's trackers folder.");
  for (const kind of TRACKER_KINDS) {
    textSetting(sc, {
      name: `${kind.charAt(0).toUpperCase()}${kind.slice(1)} note`,
      desc: "",
      get: (s) => s.trackerFiles[kind],
      set: (s, v) => (s.trackerFiles[kind] = v),
    }).settingEl.addClass("am-setting-indented");
  }
}

/** Agents discovered from folders, and the default agent for the ribbon and today's journal. */
export function agentsSection(sc: SectionContext): void {
  const found = sc.agents.join(", ");
  heading(sc, "Agents", `Every folder under the agents folder is an agent. Found: ${found}.`);
  dropdownSetting(sc, {
    name: "Default agent",
    desc: 'Whose journal the ribbon button and "Extract from today\'s journal" use.',
    options: Object.fromEntries(sc.agents.map((a) => [a, a])),
    get: (s) => s.defaultAgent,
    set: (s, v) => (s.defaultAgent = v),
  });
}
