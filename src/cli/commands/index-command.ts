import type { CliCommand } from "../command";
import { UsageError } from "../../core/errors";

/** `agent-memory index` (DESIGN §7). TO BE IMPLEMENTED. */
export const indexCommand: CliCommand = {
  name: "index",
  usage: "index <vault>",
  options: {},
  positionals: { min: 0, max: 8 },
  run() {
    return Promise.reject(new UsageError("index is not implemented yet"));
  },
};
