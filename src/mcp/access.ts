/**
 * What an MCP server may read and write (docs/mcp.md, "Tools"): every path taken from a tool
 * argument goes through the layout's guard ({@link normalizeVaultPath}, the memory root) and the
 * real-path rule of {@link NodeVault} (docs/write-safety.md, "Inside the vault"), and then through
 * two rules of the server's own:
 * - **isolated zones** are unreachable unless the server was started with `--zone <zone>`, also
 *   through a symbolic link whose target is in a zone;
 * - **writes** land only inside the server's agent folder (`Memory/Agents/<agent>/`), judged on the
 *   path and on its real path.
 * Hidden folders (`.obsidian`, `.agent-memory`) are never reachable.
 */
import { PathError } from "../core/errors";
import { normalizeVaultPath, type MemoryLayout } from "../core/layout";
import type { DecideFn, Decided, ProcessFn, VaultPort } from "../core/vault";
import type { NodeVault } from "../node/node-vault";

/**
 * How a refusal names the isolated zone `zone` a client was not given: the stdio server's flag and
 * the HTTP token's option (an HTTP server takes no `--zone`; its tokens carry the zones).
 */
export function zoneNotGiven(zone: string | null): string {
  return `which this server was not given (mcp --zone ${zone}, or over HTTP a token made with token add --zone ${zone})`;
}

export class MemoryAccess {
  /** Zones named with `--zone`, as the settings spell them. */
  readonly zones: readonly string[];

  /**
   * @param agent the server's agent (`--agent`, else the settings' default agent); throws
   *   {@link PathError} for an unsafe name
   * @param zones isolated zones the server may reach, as given to `--zone`
   * @throws {@link PathError} for a zone that is not an isolated zone of the settings
   */
  constructor(
    readonly vault: NodeVault,
    readonly layout: MemoryLayout,
    readonly agent: string,
    zones: readonly string[] = [],
  ) {
    layout.agentRoot(agent);
    const known = layout.settings.isolatedZones;
    this.zones = zones.map((z) => {
      const zone =
        known.find((k) => k === z) ?? known.find((k) => k.toLowerCase() === z.toLowerCase());
      if (!zone)
        throw new PathError(
          `--zone ${z} is not an isolated zone of this vault (zones: ${known.join(", ") || "none"})`,
          z,
        );
      return zone;
    });
  }

  /** `Memory/Agents/<agent>`: the only folder this server writes in. */
  get writeRoot(): string {
    return this.layout.agentRoot(this.agent);
  }

  /** True when a note in `zone` (`null`: no zone) may be read. */
  zoneAllowed(zone: string | null): boolean {
    return zone === null || this.zones.includes(zone);
  }

  /** True when vault path `path` (already normalised) may be read, by its name alone. */
  visible(path: string): boolean {
    return (
      this.layout.isInside(path) &&
      !path.split("/").some((s) => s.startsWith(".")) &&
      this.zoneAllowed(this.layout.zoneOf(path))
    );
  }

  /**
   * The vault path of a note to read, from a tool argument (`Memory/…/Note.md`; `.md` is added when
   * missing). Throws {@link PathError} with a one-line reason for an absolute path, `..`, a hidden
   * folder, a path outside the memory root, an isolated zone not opened with `--zone`, or a real
   * path (after links) outside the vault or in such a zone.
   */
  readable(arg: string): string {
    const path = this.normal(arg);
    this.checkZone(path, path);
    this.checkZone(this.realVaultPath(path), path);
    return path;
  }

  /**
   * Checks that vault path `path` may be written by this server and returns it normalised.
   * Throws {@link PathError} when it (or its real path) is outside the agent's folder or in an
   * isolated zone not opened with `--zone`.
   */
  writable(path: string): string {
    const p = this.normal(path);
    const root = this.writeRoot;
    const inside = (q: string) => q === root || q.startsWith(`${root}/`);
    if (!inside(p))
      throw new PathError(
        `${p} is outside the folder of agent ${this.agent} (${root}/), the only one this server writes in`,
        p,
      );
    this.checkZone(p, p);
    const real = this.realVaultPath(p);
    if (!inside(real))
      throw new PathError(
        `${p} leads to ${real}, outside the folder of agent ${this.agent}; refused`,
        p,
      );
    this.checkZone(real, p);
    return p;
  }

  /**
   * Checks that vault path `path` is another agent's questions or proposals tracker, the one place
   * outside its own folder this server writes: an answer under an item addressed to its agent
   * (docs/inbox.md; the item is checked by the inbox's rule before anything is written). Throws
   * {@link PathError} for any other path, one in an isolated zone, or one whose real path differs.
   */
  repliable(path: string): string {
    const p = this.normal(path);
    const sender = this.layout.agentOf(p);
    const trackers =
      sender === null
        ? []
        : (["questions", "proposals"] as const).map((k) => this.layout.trackerPath(sender, k));
    if (!trackers.includes(p))
      throw new PathError(
        `${p} is not an agent's questions or proposals tracker; an answer is written only there`,
        p,
      );
    this.checkZone(p, p);
    const real = this.realVaultPath(p);
    if (real !== p) throw new PathError(`${p} leads to ${real}; refused`, p);
    return p;
  }

  /**
   * A {@link VaultPort} whose every write is checked by {@link writable} first (reads are as
   * the vault's), for core code that writes (extraction, trackers, topics): one place that no
   * write of this server can go around.
   */
  writeGuarded(): VaultPort {
    const vault = this.vault;
    const writable = (path: string): string => this.writable(path);
    function process(path: string, fn: ProcessFn): Promise<boolean>;
    function process<T>(path: string, fn: DecideFn<T>): Promise<Decided<T>>;
    function process<T>(path: string, fn: ProcessFn | DecideFn<T>): Promise<boolean | Decided<T>>;
    function process<T>(path: string, fn: ProcessFn | DecideFn<T>): Promise<boolean | Decided<T>> {
      try {
        return vault.process(writable(path), fn);
      } catch (err) {
        return Promise.reject(err instanceof Error ? err : new Error(String(err)));
      }
    }
    return {
      read: (path) => vault.read(path),
      exists: (path) => vault.exists(path),
      list: (folder) => vault.list(folder),
      process,
    };
  }

  private normal(arg: string): string {
    let path = normalizeVaultPath(arg.trim());
    if (path === "") throw new PathError("no path given", arg);
    if (path.split("/").some((s) => s.startsWith(".")))
      throw new PathError(`${path} is in a hidden folder; refused`, arg);
    if (!/\.md$/i.test(path)) path = `${path}.md`;
    return this.layout.under(path);
  }

  private checkZone(path: string, asked: string): void {
    const zone = this.layout.zoneOf(path);
    if (!this.zoneAllowed(zone)) {
      const via = path === asked ? "" : ` (through a link from ${asked})`;
      throw new PathError(
        `${path} is in the isolated zone ${zone}${via}, ${zoneNotGiven(zone)}`,
        asked,
      );
    }
  }

  /** The vault path of `path`'s real location (links followed); throws PathError outside the vault. */
  private realVaultPath(path: string): string {
    return this.vault.realVaultPath(path);
  }
}
