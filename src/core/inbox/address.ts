/**
 * Who an item is addressed to (docs/inbox.md): the `[to:: …]` inline field of a question or
 * proposal, as extraction writes it from `[to:: [[agent]]]` or an `@agent` mention in the journal
 * (`newItemFields` of src/core/trackers/new-item.ts). One reading for the brief, the inbox listing
 * and the inbox verbs.
 */
import { wikilinkTargets } from "../markdown/wikilinks";

/**
 * Names in a `[to:: …]` value: wikilink targets (last path part, without `#heading`), else
 * comma- or semicolon-separated words; a leading `@` is dropped. `undefined` or `null`: none.
 * @example recipients("[[Memory/Agents/ming]], [[me]]") // ["ming", "me"]
 */
export function recipients(value: string | null | undefined): string[] {
  if (value === undefined || value === null) return [];
  const links = wikilinkTargets(value);
  const names = links.length > 0 ? links.map((t) => t.split("#")[0] ?? t) : value.split(/[,;]/);
  return names
    .map((n) => (n.split("/").pop() ?? n).trim().replace(/^@/, ""))
    .filter((n) => n !== "");
}

/** True when `name` is one of the {@link recipients} of a `to` value (case ignored). */
export function addressedTo(value: string | null | undefined, name: string): boolean {
  const me = name.trim().toLowerCase();
  return recipients(value).some((r) => r.toLowerCase() === me);
}
