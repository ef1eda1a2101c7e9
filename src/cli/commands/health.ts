import type { CliCommand } from "../command";
import { UsageError } from "../../core/errors";

/** `agent-memory health` (DESIGN §7). TO BE IMPLEMENTED. */
export const healthCommand: CliCommand = {
  name: "health",
  usage: "health <vault>",
  options: {},
  positionals: { min: 0, max: 8 },
  run() {
    return Promise.reject(new UsageError("health is not implemented yet"));
  },
};
