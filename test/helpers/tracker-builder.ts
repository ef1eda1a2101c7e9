// Tracker notes for tests, built fluently (docs/testing.md, "A tracker note in a test"), in the
// format of docs/architecture.md, "Trackers": a task-list line per item with its inline fields and
// block id, child lines indented under it.
import type { TrackerKind } from "../../src/core/settings";
import type { TrackerStatus } from "../../src/core/trackers/format";

const CHECKBOX: Readonly<Record<TrackerStatus, string>> = {
  open: " ",
  "in-progress": "/",
  done: "x",
  abandoned: "-",
};

/** One item line and its children, as {@link TrackerBuilder.item} collects them. */
export class ItemBuilder {
  private state: TrackerStatus = "open";
  private blockId: string | null = null;
  private readonly fields: [string, string][] = [];
  private readonly children: string[] = [];

  constructor(private readonly title: string) {}

  /** The checkbox: `open` (default), `in-progress`, `done` or `abandoned`. */
  status(status: TrackerStatus): this {
    this.state = status;
    return this;
  }

  /** The block id at the end of the line, without `^` (`t-001`). */
  id(id: string): this {
    this.blockId = id;
    return this;
  }

  /** A Dataview inline field `[key:: value]`, written in the order the calls give. */
  field(key: string, value: string): this {
    this.fields.push([key, value]);
    return this;
  }

  /** A child line under the item (`- ` and four spaces of indent are added). */
  child(text: string): this {
    this.children.push(text);
    return this;
  }

  /** The item's lines. */
  lines(): string[] {
    const fields = this.fields.map(([k, v]) => ` [${k}:: ${v}]`).join("");
    const id = this.blockId ? ` ^${this.blockId}` : "";
    return [
      `- [${CHECKBOX[this.state]}] ${this.title}${fields}${id}`,
      ...this.children.map((c) => `    - ${c}`),
    ];
  }
}

/** A tracker note: frontmatter, a heading, item lines, and any raw lines between them. */
export class TrackerBuilder {
  private agentName = "ada";
  private readonly extra: [string, string][] = [];
  private readonly body: string[] = [];
  private withFrontmatter = true;

  constructor(private readonly kind: TrackerKind) {}

  /** The agent whose tracker it is (`ada` by default): its frontmatter and its path. */
  agent(name: string): this {
    this.agentName = name;
    return this;
  }

  /** Another frontmatter key, written as given (quote a wikilink yourself). */
  meta(key: string, value: string): this {
    this.extra.push([key, value]);
    return this;
  }

  /** Leaves the frontmatter out (a tracker needs none). */
  noFrontmatter(): this {
    this.withFrontmatter = false;
    return this;
  }

  /** Adds an item; `build` sets its id, status, fields and children. */
  item(title: string, build: (item: ItemBuilder) => ItemBuilder = (i) => i): this {
    this.body.push(...build(new ItemBuilder(title)).lines());
    return this;
  }

  /** Adds a line as it is (a person's note, a blank line, a heading). */
  line(text: string): this {
    this.body.push(text);
    return this;
  }

  /** The tracker's note name with the default settings (`Tasks` for `tasks`). */
  noteName(): string {
    return this.kind.charAt(0).toUpperCase() + this.kind.slice(1);
  }

  /** Its vault path with the default layout: `Memory/Agents/<agent>/Trackers/<Name>.md`. */
  path(): string {
    return `Memory/Agents/${this.agentName}/Trackers/${this.noteName()}.md`;
  }

  /** The note's text, ending with a newline. */
  text(): string {
    const head = this.withFrontmatter
      ? [
          "---",
          "type: tracker",
          `kind: ${this.kind}`,
          `agent: ${this.agentName}`,
          ...this.extra.map(([k, v]) => `${k}: ${v}`),
          "---",
        ]
      : [];
    return [...head, `# ${this.noteName()}`, "", ...this.body].join("\n") + "\n";
  }

  /** `[path, text]`, for the `files` of `tempVault` (test/helpers/temp-vault.ts). */
  entry(): [string, string] {
    return [this.path(), this.text()];
  }
}

/** Starts a tracker note of `kind` for agent `ada`; see {@link TrackerBuilder}. */
export function tracker(kind: TrackerKind): TrackerBuilder {
  return new TrackerBuilder(kind);
}
