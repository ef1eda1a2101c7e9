import type { CliCommand } from "../command";
import { UsageError } from "../../core/errors";

/** `agent-memory extract` (DESIGN §7). TO BE IMPLEMENTED. */
export const extractCommand: CliCommand = {
  name: "extract",
  usage: "extract <vault>",
  options: {},
  positionals: { min: 0, max: 8 },
  run() {
    return Promise.reject(new UsageError("extract is not implemented yet"));
  },
};
