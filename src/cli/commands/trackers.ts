import type { CliCommand } from "../command";
import { UsageError } from "../../core/errors";

/** `agent-memory trackers` (DESIGN §7). TO BE IMPLEMENTED. */
export const trackersCommand: CliCommand = {
  name: "trackers",
  usage: "trackers <vault>",
  options: {},
  positionals: { min: 0, max: 8 },
  run() {
    return Promise.reject(new UsageError("trackers is not implemented yet"));
  },
};
