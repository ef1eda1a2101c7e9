import type { EditResult } from "../../src/core/trackers/store";

/** The text of an edit that must have succeeded; fails the test with the edit's message otherwise. */
export function textOf(result: EditResult): string {
  if (!result.ok) throw new Error(`expected the edit to succeed: ${result.error.message}`);
  return result.value.text;
}

/** Whether an edit that must have succeeded had to change the text. */
export function changedOf(result: EditResult): boolean {
  if (!result.ok) throw new Error(`expected the edit to succeed: ${result.error.message}`);
  return result.value.changed;
}
