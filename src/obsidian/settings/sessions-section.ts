/**
 * Settings: agent sessions (docs/agents.md, "Importing past sessions"): per agent, an optional
 * vault folder whose transcripts are imported when added or grown. Empty: off (the default).
 */
import { heading, textSetting, type SectionContext } from "./controls";

/** One folder per agent. */
export function sessionsSection(sc: SectionContext): void {
  heading(
    sc,
    "Agent sessions",
    'Claude Code and Codex transcripts (.jsonl) put in a folder are imported into the agent\'s journal when they are added or grow. "Import agent sessions" imports files once.',
  );
  for (const agent of sc.agents) {
    textSetting(sc, {
      name: `Transcript folder of ${agent}`,
      desc: "A folder of this vault; empty turns watching off.",
      placeholder: `Transcripts/${agent}`,
      get: (s) => s.sessionImport.folders[agent] ?? "",
      set: (s, v) => {
        if (v.trim() === "") delete s.sessionImport.folders[agent];
        else s.sessionImport.folders[agent] = v.trim();
      },
    });
  }
}
