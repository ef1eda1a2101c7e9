import type { CliCommand } from "../command";
import { UsageError } from "../../core/errors";

/** `agent-memory search` (DESIGN §7). TO BE IMPLEMENTED. */
export const searchCommand: CliCommand = {
  name: "search",
  usage: "search <vault>",
  options: {},
  positionals: { min: 0, max: 8 },
  run() {
    return Promise.reject(new UsageError("search is not implemented yet"));
  },
};
