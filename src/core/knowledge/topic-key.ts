/**
 * Topic identity (docs/architecture.md, "Topic notes"; test/core/knowledge/topic-notes.test.ts, "case 11: …" and
 * "case 12: …"): the dedupe key of a topic title, its frontmatter id, and where its note lives.
 */
import { PathError, errorMessage } from "../errors";
import { stripWikilinkBrackets } from "../markdown/wikilinks";
import { sanitizeFileName, type MemoryLayout } from "../layout";
import { err, ok, type Result } from "../util/result";
import { fnv1a } from "../util/hash";

/**
 * Dedupe key of a topic title: NFKC, lower case, whitespace collapsed, `[[ ]]` and a trailing `.md`
 * removed. Unicode is kept, so `睡眠质量` and `早起习惯` give different keys (test/core/knowledge/topic-notes.test.ts,
 * "case 11: …"); never a shared fallback. An empty title gives `""`, which callers must reject.
 */
export function topicKey(title: string): string {
  return stripWikilinkBrackets(title.normalize("NFKC"))
    .replace(/\s+/g, " ")
    .trim()
    .replace(/\.md$/i, "")
    .trim()
    .toLowerCase();
}

/**
 * Frontmatter `id` of a topic note: `<owner>/<slug>` (`link/content-quality`, `library/睡眠质量`), or
 * the slug alone without an owner. The slug is the {@link topicKey} with spaces as `-` and unsafe
 * characters replaced; a title with nothing usable gets `topic-<hash>` so distinct titles never
 * share an id.
 */
export function topicId(title: string, owner?: string): string {
  const key = topicKey(title);
  const safe = sanitizeFileName(key)?.replace(/ /g, "-");
  const slug = safe ?? `topic-${fnv1a(key).toString(36)}`;
  return owner ? `${owner}/${slug}` : slug;
}

/**
 * Where a topic note goes: the vault path, or why it cannot be written (test/core/knowledge/topic-notes.test.ts,
 * "case 12: …").
 */
export type TopicDestination = Result<{ path: string; key: string }>;

/**
 * Path of a topic note for an agent (`Memory/Agents/<agent>/Knowledge/<category>/<Topic>.md`) or, when
 * `area` is given without `agent`, in the library (`Memory/Library/<area>/<Topic>.md`). The name is
 * sanitised by {@link sanitizeFileName} (Unicode kept, only unsafe characters replaced:
 * test/core/knowledge/topic-notes.test.ts, "case 11: …"), so a title like `../../x` stays inside the folder
 * (test/core/knowledge/topic-notes.test.ts, "case 12: …"); a title with nothing usable, or a bad agent name, gives
 * a reason instead of a path. Never throws.
 */
export function topicDestination(
  layout: MemoryLayout,
  where: { title: string; agent?: string; category?: string; area?: string },
): TopicDestination {
  const key = topicKey(where.title);
  if (!key) return err("topic title is empty");
  try {
    const path =
      where.agent !== undefined
        ? layout.topicPath(where.agent, where.title, where.category)
        : layout.libraryPath(where.area ?? where.category ?? "", where.title);
    return ok({ path, key });
  } catch (e) {
    if (e instanceof PathError) return err(errorMessage(e));
    throw e;
  }
}
