import type { CliCommand } from "../command";
import { initCommand } from "./init";
import { extractCommand } from "./extract";
import { trackersCommand } from "./trackers";
import { searchCommand } from "./search";
import { indexCommand } from "./index-command";
import { healthCommand } from "./health";
import { reviewCommand } from "./review";
import { migrateCommand } from "./migrate";
import { briefCommand } from "./brief";
import { exportAgentsMdCommand } from "./export-agents-md";
import { mcpCommand } from "./mcp";
import { serveCommand } from "./serve";
import { tokenCommand } from "./token";
import { promoteCommand } from "./promote";
import { inboxCommand } from "./inbox";
import { compactCommand } from "./compact";
import { ingestCommand } from "./ingest";
import { hookCommand } from "./hook";
import { reconcileCommand } from "./reconcile";

/** Every sub-command, in the order `--help` lists them. */
export const commands: CliCommand[] = [
  initCommand,
  extractCommand,
  trackersCommand,
  searchCommand,
  indexCommand,
  healthCommand,
  reviewCommand,
  migrateCommand,
  briefCommand,
  exportAgentsMdCommand,
  mcpCommand,
  serveCommand,
  tokenCommand,
  promoteCommand,
  inboxCommand,
  compactCommand,
  ingestCommand,
  hookCommand,
  reconcileCommand,
];
