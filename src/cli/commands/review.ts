import type { CliCommand } from "../command";
import { UsageError } from "../../core/errors";

/** `agent-memory review` (DESIGN §7). TO BE IMPLEMENTED. */
export const reviewCommand: CliCommand = {
  name: "review",
  usage: "review <vault>",
  options: {},
  positionals: { min: 0, max: 8 },
  run() {
    return Promise.reject(new UsageError("review is not implemented yet"));
  },
};
