/** Settings: journal names, or the Daily notes core plugin's folder and format. */
import { readDailyNotesOptions } from "../adapters/today-journal";
import { heading, textSetting, toggleSetting, type SectionContext } from "./controls";

/** Journal name pattern and the Daily notes switch. */
export function journalSection(sc: SectionContext): void {
  heading(sc, "Journals");
  const daily = readDailyNotesOptions(sc.app);
  const dailyDesc = daily.ok
    ? `Today's journal is then the daily note: ${daily.value.folder || "(vault root)"}/${daily.value.format}.`
    : `Today's journal is then the daily note. Not available now: ${daily.error}.`;
  toggleSetting(sc, {
    name: "Use daily notes",
    desc: dailyDesc,
    redisplay: true,
    get: (s) => s.useDailyNotes,
    set: (s, v) => (s.useDailyNotes = v),
  });
  if (!sc.settings().useDailyNotes) {
    textSetting(sc, {
      name: "Journal name pattern",
      desc: "Name of a journal note in the agent's journal folder; YYYY, MM and DD are replaced by the date.",
      placeholder: "YYYY-MM-DD",
      get: (s) => s.journalPattern,
      set: (s, v) => (s.journalPattern = v),
    });
  }
}
