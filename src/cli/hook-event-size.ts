/**
 * The largest hook event read (bytes), one number for the small launcher that reads a Claude Code
 * hook's stdin (src/cli/launcher.ts) and the hook itself (src/cli/hook-read.ts). Claude Code's
 * events are a few hundred bytes; a larger input is refused with one line, not read to the end.
 * No imports: the launcher bundles this.
 */
export const MAX_EVENT_BYTES = 4 * 2 ** 20;
