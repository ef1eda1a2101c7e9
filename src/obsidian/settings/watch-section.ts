/** Settings: watch and extract (docs/compaction.md). Off by default. */
import { heading, numberSetting, toggleSetting, type SectionContext } from "./controls";

/** Minutes a journal must be left unchanged before it is extracted (0 = off), and auto-apply. */
export function watchSection(sc: SectionContext): void {
  heading(
    sc,
    "Watch and extract",
    "Extract a journal automatically once it has been left unchanged for a while.",
  );
  numberSetting(sc, {
    name: "Extract after minutes unchanged",
    desc: "0 turns this off. The plan waits in the agent's review queue (the To review tab of the tracker panel) unless auto-apply is on.",
    get: (s) => s.watch.extractAfterMinutes,
    set: (s, v) => (s.watch.extractAfterMinutes = v),
  });
  toggleSetting(sc, {
    name: "Apply without review",
    desc: "Write what a quiet journal yields at once instead of queueing it for review.",
    get: (s) => s.watch.autoApply,
    set: (s, v) => (s.watch.autoApply = v),
  });
}
