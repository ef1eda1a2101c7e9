/**
 * The health rules: id, severity, what each checks and how to fix it
 * (docs/architecture.md, "The health check"; "How to add a health rule"). Thresholds live in
 * `settings.health` and
 * `settings.search.sizeCapBytes`.
 */
import type { HealthRuleId, Severity } from "./types";

/** Description of one rule. */
export interface HealthRule {
  id: HealthRuleId;
  severity: Severity;
  /** What the rule checks, one line. */
  title: string;
  /** How to fix a finding, one line. */
  fix: string;
}

/** The fix of an `unreadable` note that is not UTF-8 (or is UTF-16). */
export const NOT_UTF8_FIX =
  "Convert the note to UTF-8 (e.g. `iconv -f latin1 -t utf-8`); until then Agent Memory neither reads nor writes it.";

/** The fix of an `unreadable` note that is a symbolic link out of the vault (or under one). */
export const LINK_OUT_FIX =
  "Agent Memory does not follow a symbolic link out of the vault: to keep the note, move the file into the vault in place of the link (or point the link at a note inside the vault); until then it neither reads nor writes it.";

/** Every rule, in report order. */
export const HEALTH_RULES: readonly HealthRule[] = [
  {
    id: "unreadable",
    severity: "error",
    title: "Note cannot be read (not UTF-8, or a link out of the vault)",
    fix: "Each finding says its own fix: a note that is not UTF-8 is converted, a link out of the vault is replaced by the note; until then Agent Memory neither reads nor writes it.",
  },
  {
    id: "frontmatter-invalid",
    severity: "error",
    title: "Frontmatter does not parse",
    fix: "Correct the YAML at the line given; quote values that contain `: `, `#` or start with `[`, `{`, `*` or `&`.",
  },
  {
    id: "conflict-markers",
    severity: "error",
    title: "Git conflict markers (`<<<<<<<`, `=======`, `>>>>>>>`) left in the note",
    fix: "Run `agent-memory git resolve <vault>` while the merge is still open, or keep what both sides wrote and delete the marker lines; `agent-memory git setup <vault>` once per clone prevents them (docs/sync.md).",
  },
  {
    id: "conflict-copy",
    severity: "error",
    title:
      "Conflict copy a sync tool left beside a note (`X.sync-conflict-….md`, `X (conflicted copy …).md`)",
    fix: "Run `agent-memory reconcile <vault>`: it merges the copy into its note and keeps the copy in `.agent-memory/conflict-copies/` (docs/sync.md).",
  },
  {
    id: "merge-choice",
    severity: "warning",
    title: "A value changed two ways that a merge or `reconcile` settled (`Merge: kept … over …`)",
    fix: "Check the item: correct it if the kept value is wrong, then delete the `Merge:` line.",
  },
  {
    id: "unquoted-wikilink",
    severity: "error",
    title: "Unquoted wikilink in frontmatter (YAML reads it as a nested list)",
    fix: 'Quote each wikilink: `project: "[[Project Alpha]]"`, `people: ["[[Person A]]", "[[Person B]]"]`.',
  },
  {
    id: "frontmatter-not-mapping",
    severity: "warning",
    title: "`---` lines that are not frontmatter",
    fix: "If you meant frontmatter, write `key: value` lines between the `---` lines; otherwise use `***` for the rule at the top.",
  },
  {
    id: "required-field-missing",
    severity: "error",
    title: "Required frontmatter fields missing",
    fix: "Add the fields listed (the required set is the setting health.requiredFields, or health.requiredFieldsBy for the note's collection; journals need none by default).",
  },
  {
    id: "wrong-type",
    severity: "error",
    title: "Field of the wrong type",
    fix: 'Use a list of quoted wikilinks for related_to (`["[[Topic]]"]`), ISO 8601 dates (`2026-03-27` or `2026-03-27T09:30:00+08:00`), a number 0–1 for confidence.',
  },
  {
    id: "misread-value",
    severity: "warning",
    title:
      "Frontmatter value YAML reads as other than written (part lost to a ` #` comment, a list written as text)",
    fix: 'Quote a value holding ` #` (`title: "Fix bug #42"`, `tags: "#a #b"`, or better `tags: [a, b]`); write a list in brackets: `aliases: [Alpha, Project A]`.',
  },
  {
    id: "broken-link",
    severity: "error",
    title: "related_to or source link that resolves to no note or block",
    fix: "Point the link at an existing note (and block id), or remove it.",
  },
  {
    id: "duplicate-id",
    severity: "error",
    title: "Id used by more than one note, or block id used twice in a note",
    fix: "Give the note (or block) a new unique id; links to the old id keep pointing at the first one.",
  },
  {
    id: "missing-source-block",
    severity: "warning",
    title: "Tracker item whose source journal block no longer exists",
    fix: "Restore the block id in the journal, or point the item's source at the block that now holds the text.",
  },
  {
    id: "stale-draft",
    severity: "warning",
    title: "Draft not updated for health.draftDays days",
    fix: "Finish the draft (status: active, updated_at: today) or archive it.",
  },
  {
    id: "stale-knowledge",
    severity: "warning",
    title: "Knowledge not updated for health.staleDays days while newer journals mention its topic",
    fix: "Review the note against the newer journals, update it and set updated_at.",
  },
  {
    id: "may-be-stale",
    severity: "warning",
    title: "Knowledge whose topic journal blocks newer than its last update mention (may be stale)",
    fix: "Read the blocks listed; update the note if they change it (a new callout, or updated_at when it still holds).",
  },
  {
    id: "expired",
    severity: "warning",
    title: "Expired (expires_at past); search leaves it out",
    fix: "Renew it (a later expires_at), or set status: archived. Nothing is deleted.",
  },
  {
    id: "over-size-cap",
    severity: "warning",
    title: "Note over search.sizeCapBytes; only its frontmatter and headings are searchable",
    fix: "Split the note by topic or by period.",
  },
  {
    id: "review-due",
    severity: "warning",
    title: "Review whose next date has come",
    fix: "Run `review start` for it, then `review done` to schedule the next one.",
  },
  {
    id: "duplicate-field",
    severity: "warning",
    title: "Tracker item with an inline field key written twice (the last one is read)",
    fix: "Keep one field per key: remove the older value (the Tasks plugin appends a second due or priority when you set one there).",
  },
  {
    id: "unresolved-contradiction",
    severity: "warning",
    title:
      "Two current decisions or callouts on the same subject that disagree, neither superseded",
    fix: "Mark the one no longer true with `[valid_to:: YYYY-MM-DD] [superseded_by:: [[note#^id]]]` and the other with `[supersedes:: [[note#^id]]]` (docs/contradictions.md); nothing needs deleting.",
  },
  {
    id: "possible-change",
    severity: "warning",
    title:
      "Two current decisions or callouts that may be one fact changed; the statement rule could not tell",
    fix: "If the later one replaces the earlier, mark the earlier with `[valid_to:: YYYY-MM-DD] [superseded_by:: [[note#^id]]]` and the later with `[supersedes:: [[note#^id]]]` (docs/contradictions.md); if both are true, leave them.",
  },
];

const BY_ID = new Map(HEALTH_RULES.map((r) => [r.id, r]));

/** The rule with this id. */
export function healthRule(id: HealthRuleId): HealthRule {
  const rule = BY_ID.get(id);
  if (!rule) throw new Error(`unknown health rule: ${id}`);
  return rule;
}
