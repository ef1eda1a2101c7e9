import type { CliCommand } from "../command";
import { UsageError } from "../../core/errors";

/** `agent-memory init` (DESIGN §7). TO BE IMPLEMENTED. */
export const initCommand: CliCommand = {
  name: "init",
  usage: "init <vault>",
  options: {},
  positionals: { min: 0, max: 8 },
  run() {
    return Promise.reject(new UsageError("init is not implemented yet"));
  },
};
