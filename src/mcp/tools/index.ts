/**
 * Every tool of the MCP server, in the order `tools/list` shows them (docs/mcp.md, "Tools"). A new
 * tool is a file beside this one built with `defineTool` (./common.ts) and a line here.
 */
import { addKnowledge } from "./add-knowledge";
import { addTrackerItemTool } from "./add-tracker-item";
import { answerInboxItemTool } from "./answer-inbox-item";
import { appendJournal } from "./append-journal";
import { brief } from "./brief";
import type { McpTool } from "./common";
import { extract } from "./extract";
import { health } from "./health";
import { inbox } from "./inbox";
import { listTrackers } from "./list-trackers";
import { proposePromotion } from "./propose-promotion";
import { readNote } from "./read-note";
import { search } from "./search";
import { status } from "./status";
import { updateTrackerItem } from "./update-tracker-item";

export type { Hints, McpTool, ToolDeps, ToolOutput } from "./common";
export { runTool } from "./common";

/** Every tool, in list order. */
export const TOOLS: readonly McpTool[] = [
  brief,
  search,
  readNote,
  appendJournal,
  extract,
  listTrackers,
  addTrackerItemTool,
  updateTrackerItem,
  addKnowledge,
  health,
  status,
  inbox,
  answerInboxItemTool,
  proposePromotion,
];
