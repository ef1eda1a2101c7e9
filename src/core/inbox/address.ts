/**
 * Who an item is addressed to (docs/inbox.md): the `[to:: …]` inline field of a question or
 * proposal, as extraction writes it from `[to:: [[agent]]]` or an `@agent` mention in the journal
 * (`newItemFields` of src/core/trackers/new-item.ts). One reading for the brief, the inbox listing
 * and the inbox verbs.
 */
import { namesIn } from "../trackers/fields";

/**
 * Names in a `[to:: …]` value (`namesIn` of src/core/trackers/fields.ts): wikilink targets (last
 * path part, without `#heading`), else comma- or semicolon-separated words; a leading `@` is
 * dropped. `undefined` or `null`: none.
 * @example recipients("[[Memory/Agents/ming]], [[me]]") // ["ming", "me"]
 */
export const recipients = namesIn;

/** True when `name` is one of the {@link recipients} of a `to` value (case ignored). */
export function addressedTo(value: string | null | undefined, name: string): boolean {
  const me = name.trim().toLowerCase();
  return recipients(value).some((r) => r.toLowerCase() === me);
}
