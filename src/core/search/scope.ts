/**
 * Search scopes (docs/architecture.md, "Scopes and zones"): `all` (everything but isolated zones),
 * `library`,
 * `agent:<name>` (that agent's folder plus the library) and the name of an isolated zone (only that
 * zone). An isolated note is indexed in its own shard (see {@link SearchService}), so no other scope
 * can see it, its words, its counts or its term statistics.
 */
import { defaultSettings, normalizeZone, type Settings } from "../settings";
import { AGENT_NAME_RULE } from "../layout";
import type { Result } from "../util/result";
import type { NoteMeta } from "./note-document";

/** A resolved scope. */
export type Scope =
  | { kind: "all" }
  | { kind: "library" }
  | { kind: "agent"; agent: string }
  | { kind: "zone"; zone: string };

/** The shard holding every note outside isolated zones. */
export const MAIN_SHARD = "";

/**
 * Reads a scope argument: `all` (the default when empty), `library`, `agent:<name>`, or an isolated
 * zone's folder name from `settings.isolatedZones` (exact, else case-insensitive).
 * @returns the scope, or an error listing the valid scopes.
 */
export function parseScope(
  text: string | undefined,
  settings: Pick<Settings, "isolatedZones">,
): Result<Scope> {
  const value = (text ?? "").trim();
  if (value === "" || value.toLowerCase() === "all") return { ok: true, value: { kind: "all" } };
  if (value.toLowerCase() === "library") return { ok: true, value: { kind: "library" } };
  const agent = /^agent:(.+)$/i.exec(value);
  if (agent) {
    const name = (agent[1] ?? "").trim();
    if (name === "" || /[/\\]/.test(name) || name === "." || name === "..") {
      return { ok: false, error: `invalid agent name in scope "${value}" (${AGENT_NAME_RULE})` };
    }
    return { ok: true, value: { kind: "agent", agent: name } };
  }
  const zones = settings.isolatedZones;
  // Written as the zone setting may be (`/Clients/Acme/`, `Clients\Acme`).
  const folder = normalizeZone(value);
  const zone =
    zones.find((z) => z === folder) ?? zones.find((z) => z.toLowerCase() === folder.toLowerCase());
  if (zone) return { ok: true, value: { kind: "zone", zone } };
  const valid = ["all", "library", "agent:<name>", ...zones].join(", ");
  return { ok: false, error: `unknown scope "${value}" (valid: ${valid})` };
}

/**
 * Isolated zones of the settings that hold no indexed note, for a warning: a misspelt zone
 * (`Memory/Secret` under the memory root `Memory`, say) isolates nothing. The default zone is left
 * out, since a new vault has no `Restricted` folder yet.
 * @param counts notes per zone, as {@link SearchService.stats} gives them
 */
export function emptyZones(
  zones: readonly string[],
  counts: Readonly<Record<string, number>>,
): string[] {
  const defaults = defaultSettings().isolatedZones;
  return zones.filter((zone) => !counts[zone] && !defaults.includes(zone));
}

/** The scope as written on the command line (`all`, `library`, `agent:link`, `Restricted`). */
export function scopeLabel(scope: Scope): string {
  switch (scope.kind) {
    case "all":
      return "all";
    case "library":
      return "library";
    case "agent":
      return `agent:${scope.agent}`;
    case "zone":
      return scope.zone;
  }
}

/** The shard a scope searches: the zone's own shard, or the main one. */
export function shardOf(scope: Scope): string {
  return scope.kind === "zone" ? scope.zone : MAIN_SHARD;
}

/**
 * True when a note is visible in a scope. Checked on top of the shard choice, so that a note
 * whose zone disagrees with its shard (it cannot happen, but an index is data) stays hidden.
 */
export function inScope(meta: NoteMeta, scope: Scope): boolean {
  switch (scope.kind) {
    case "zone":
      return meta.zone === scope.zone;
    case "all":
      return meta.zone === null;
    case "library":
      return meta.zone === null && meta.collection === "library";
    case "agent":
      return meta.zone === null && (meta.agent === scope.agent || meta.collection === "library");
  }
}
