/**
 * The tracker panel (docs/plugin.md, "Tracker panel"): an `ItemView` in the right sidebar with an
 * agent picker, a tab per tracker note (tasks, goals, reviews, proposals, questions, decisions)
 * with counts, and a status filter. Ticking an item sets its status in the note through the core
 * (`setItemStatus`, or
 * `advanceReview` for a review loop, which moves its `next` date); a change a person makes in the
 * note re-renders the panel at once (vault `modify` event). Goals show their latest progress note,
 * reviews whose `next` date has come are marked due, an item's text opens its line and its source
 * link opens the journal block. The "Inbox" tab lists what is addressed to the selected agent
 * (for the person's address, the settings' default agent: the person's inbox, with every proposal
 * waiting for approval) and lets the person accept or decline each item (docs/inbox.md).
 */
import { ItemView, Notice, TAbstractFile, type WorkspaceLeaf } from "obsidian";
import { errorMessage } from "../../core/errors";
import type { TrackerItem, TrackerStatus } from "../../core/trackers/format";
import { listItems } from "../../core/trackers/format";
import { isOpenStatus, latestProgress } from "../../core/trackers/status";
import {
  FIELD_KEYS,
  fieldValue as readField,
  isSuperseded,
  itemState,
  priorityWord,
} from "../../core/trackers/fields";
import { dueReviews, isReviewItem, readSchedule } from "../../core/trackers/reviews";
import { asWikilink, stripWikilinkBrackets, wikilinkTargets } from "../../core/markdown/wikilinks";
import { TRACKER_KINDS, type TrackerKind } from "../../core/settings";
import { discoverAgents, layoutOf, type PluginContext } from "../context";
import { tickTrackerItem } from "./tracker-edits";
import { listInbox, type Actor, type InboxItem } from "../../core/inbox/inbox";
import { answerInboxItem } from "../../core/inbox/respond";
import { localTimestamp } from "../../core/util/dates";
import { TO_REVIEW_LABEL, isQueueNote, loadQueue, renderQueue } from "./review-queue-tab";

export const TRACKER_VIEW_TYPE = "agent-memory-trackers";

/** Which items the panel lists. `open` means open or in progress. */
export type StatusFilter = "open" | "done" | "abandoned" | "all";

const KIND_LABELS: Readonly<Record<TrackerKind, string>> = {
  tasks: "Tasks",
  goals: "Goals",
  reviews: "Reviews",
  proposals: "Proposals",
  questions: "Questions",
  decisions: "Decisions",
};

const FILTER_LABELS: Readonly<Record<StatusFilter, string>> = {
  open: "Open",
  done: "Done",
  abandoned: "Abandoned",
  all: "All",
};

/** Fields shown as small badges after an item's text, in this order (`state` also reads the old `status`). */
const BADGE_FIELDS = [
  FIELD_KEYS.priority,
  FIELD_KEYS.due,
  FIELD_KEYS.target,
  FIELD_KEYS.every,
  FIELD_KEYS.next,
  FIELD_KEYS.to,
  FIELD_KEYS.owner,
  FIELD_KEYS.state,
  FIELD_KEYS.decided,
];

/** True when an item passes the status filter. */
export function matchesFilter(status: TrackerStatus, filter: StatusFilter): boolean {
  if (filter === "all") return true;
  if (filter === "open") return isOpenStatus(status);
  return status === filter;
}

/**
 * A field's value as every reader reads it (the last field with the key wins; docs/decisions.md,
 * "Tracker line order follows Tasks' reader").
 */
function fieldValue(item: TrackerItem, key: string): string | null {
  if (key === FIELD_KEYS.state) return itemState(item.fields);
  const value = readField(item.fields, key);
  return key === FIELD_KEYS.priority && value !== null ? (priorityWord(value) ?? value) : value;
}

/**
 * The status the panel shows: a review loop ticked done on its line is read as its round done and
 * the loop open (src/core/trackers/reviews.ts), so it is listed open with its next date.
 */
function shownStatus(item: TrackerItem): TrackerStatus {
  return isReviewItem(item) ? readSchedule(item).status : item.status;
}

/** Loaded contents of one tracker note. */
interface TrackerData {
  path: string;
  exists: boolean;
  items: TrackerItem[];
  /** Ids of reviews due today or earlier → days overdue. */
  due: Map<string, number>;
  error?: string;
}

export class TrackerView extends ItemView {
  agent: string;
  kind: TrackerKind = "tasks";
  /** True when the "Inbox" tab is shown instead of a tracker's. */
  inbox = false;
  filter: StatusFilter = "open";
  /** The "To review" tab (queued plans of watch and extract) is shown instead of a tracker. */
  queueTab = false;
  /** Bumped on every render so an older, slower render does not overwrite a newer one. */
  private renderSeq = 0;
  private closed = false;
  /** Resolves when the latest render has finished (tests and chained renders wait on it). */
  rendering: Promise<void> = Promise.resolve();

  constructor(
    leaf: WorkspaceLeaf,
    private readonly ctx: PluginContext,
    /** Opens the extraction review of a journal (the "To review" tab); none: the tab only lists. */
    private readonly reviewJournal?: (journal: string) => Promise<void>,
  ) {
    super(leaf);
    this.agent = ctx.settings().defaultAgent;
  }

  override getViewType(): string {
    return TRACKER_VIEW_TYPE;
  }

  override getDisplayText(): string {
    return "Memory trackers";
  }

  override getIcon(): string {
    return "list-checks";
  }

  protected override async onOpen(): Promise<void> {
    this.contentEl.addClass("am-tracker-view");
    const onChange = (file: TAbstractFile): void => {
      if (this.isWatched(file.path)) this.refresh();
    };
    this.registerEvent(this.app.vault.on("modify", onChange));
    this.registerEvent(this.app.vault.on("delete", onChange));
    // `create` fires for every file while Obsidian loads; a restored panel listens only afterwards.
    this.app.workspace.onLayoutReady(() => {
      if (!this.closed) this.registerEvent(this.app.vault.on("create", onChange));
    });
    this.registerEvent(
      this.app.vault.on("rename", (file, oldPath) => {
        if (this.isWatched(file.path) || this.isWatched(oldPath)) this.refresh();
      }),
    );
    this.refresh();
    await this.rendering;
  }

  protected override onClose(): Promise<void> {
    this.closed = true;
    this.renderSeq++;
    this.contentEl.empty();
    return Promise.resolve();
  }

  /** True for the current agent's tracker notes, and (for the inbox) any agent's questions and proposals. */
  private isWatched(path: string): boolean {
    try {
      const layout = layoutOf(this.ctx);
      const other = layout.agentOf(path);
      if (
        other !== null &&
        (layout.trackerPath(other, "questions") === path ||
          layout.trackerPath(other, "proposals") === path)
      )
        return true;
      return (
        TRACKER_KINDS.some((kind) => layout.trackerPath(this.agent, kind) === path) ||
        isQueueNote(this.ctx, this.agent, path)
      );
    } catch {
      // A path the layout refuses (an unsafe agent name) is no tracker of this view.
      return false;
    }
  }

  /** Re-reads the trackers and re-renders; `rendering` resolves when done. */
  refresh(): void {
    const seq = ++this.renderSeq;
    this.rendering = this.render(seq).catch((err: unknown) => {
      if (seq !== this.renderSeq) return;
      this.contentEl.empty();
      this.contentEl.createDiv({
        cls: "am-error",
        text: `Cannot show the trackers: ${errorMessage(err)}`,
      });
    });
  }

  private async loadTracker(kind: TrackerKind): Promise<TrackerData> {
    const path = layoutOf(this.ctx).trackerPath(this.agent, kind);
    if (!(await this.ctx.vault.exists(path)))
      return { path, exists: false, items: [], due: new Map() };
    try {
      const text = await this.ctx.vault.read(path);
      const due = new Map<string, number>();
      if (kind === "reviews") {
        for (const r of dueReviews(text, this.ctx.today())) if (r.id) due.set(r.id, r.daysOverdue);
      }
      return { path, exists: true, items: listItems(text), due };
    } catch (err) {
      return { path, exists: true, items: [], due: new Map(), error: errorMessage(err) };
    }
  }

  private async render(seq: number): Promise<void> {
    const agents = await discoverAgents(this.ctx);
    if (!agents.includes(this.agent)) this.agent = this.ctx.settings().defaultAgent;
    const data = new Map<TrackerKind, TrackerData>();
    for (const kind of TRACKER_KINDS) data.set(kind, await this.loadTracker(kind));
    const actor = this.inboxOwner();
    let inboxItems: InboxItem[] = [];
    let inboxError: string | null = null;
    try {
      inboxItems = await listInbox(this.ctx.vault, layoutOf(this.ctx), agents, actor);
    } catch (err) {
      inboxError = errorMessage(err);
    }
    const queue = await loadQueue(this.ctx, this.agent);
    if (seq !== this.renderSeq) return;

    const root = this.contentEl;
    root.empty();
    const toolbar = root.createDiv({ cls: "am-tracker-toolbar" });
    const agentSelect = toolbar.createEl("select", {
      cls: "dropdown am-agent-picker",
      attr: { "aria-label": "Agent" },
    });
    for (const a of agents) agentSelect.createEl("option", { text: a, value: a });
    agentSelect.value = this.agent;
    agentSelect.addEventListener("change", () => {
      this.agent = agentSelect.value;
      this.refresh();
    });
    const filterSelect = toolbar.createEl("select", {
      cls: "dropdown am-status-filter",
      attr: { "aria-label": "Status" },
    });
    for (const [value, label] of Object.entries(FILTER_LABELS))
      filterSelect.createEl("option", { text: label, value });
    filterSelect.value = this.filter;
    filterSelect.addEventListener("change", () => {
      this.filter = filterSelect.value as StatusFilter;
      this.refresh();
    });

    const tabs = root.createDiv({ cls: "am-tracker-tabs", attr: { role: "tablist" } });
    for (const kind of TRACKER_KINDS) {
      const d = data.get(kind);
      const count = d
        ? d.items.filter((it) => matchesFilter(shownStatus(it), this.filter)).length
        : 0;
      const tab = tabs.createEl("button", {
        cls: "am-tracker-tab",
        attr: { role: "tab", "data-kind": kind },
      });
      tab.createSpan({ cls: "am-tab-label", text: KIND_LABELS[kind] });
      tab.createSpan({ cls: "am-tab-count", text: String(count) });
      if (kind === "reviews" && d && d.due.size > 0)
        tab.createSpan({ cls: "am-tab-due", text: `${d.due.size} due` });
      tab.toggleClass("is-active", !this.inbox && !this.queueTab && kind === this.kind);
      tab.setAttr("aria-selected", !this.inbox && !this.queueTab && kind === this.kind);
      tab.addEventListener("click", () => {
        this.kind = kind;
        this.inbox = false;
        this.queueTab = false;
        this.refresh();
      });
    }
    const inboxTab = tabs.createEl("button", {
      cls: "am-tracker-tab",
      attr: { role: "tab", "data-kind": "inbox" },
    });
    inboxTab.createSpan({ cls: "am-tab-label", text: "Inbox" });
    inboxTab.createSpan({ cls: "am-tab-count", text: String(inboxItems.length) });
    inboxTab.toggleClass("is-active", this.inbox);
    inboxTab.setAttr("aria-selected", this.inbox);
    inboxTab.addEventListener("click", () => {
      this.inbox = true;
      this.queueTab = false;
      this.refresh();
    });
    const queueTab = tabs.createEl("button", {
      cls: "am-tracker-tab",
      attr: { role: "tab", "data-kind": "to-review" },
    });
    queueTab.createSpan({ cls: "am-tab-label", text: TO_REVIEW_LABEL });
    queueTab.createSpan({ cls: "am-tab-count", text: String(queue.entries.length) });
    queueTab.toggleClass("is-active", this.queueTab && !this.inbox);
    queueTab.setAttr("aria-selected", this.queueTab && !this.inbox);
    queueTab.addEventListener("click", () => {
      this.queueTab = true;
      this.inbox = false;
      this.refresh();
    });

    if (this.inbox) {
      this.renderInbox(root, actor, inboxItems, inboxError);
      return;
    }
    const review = this.reviewJournal;
    if (this.queueTab) {
      renderQueue(
        root,
        this.agent,
        queue,
        review ? (journal) => void review(journal).then(() => this.refresh()) : null,
      );
      return;
    }
    const current = data.get(this.kind);
    if (current) this.renderList(root, current);
  }

  /** Whose inbox the tab shows: the person's for the person's address (the default agent), else the agent's. */
  private inboxOwner(): Actor {
    const person = this.ctx.settings().defaultAgent;
    return { person: this.agent === person, name: this.agent };
  }

  private renderInbox(
    root: HTMLElement,
    actor: Actor,
    items: readonly InboxItem[],
    error: string | null,
  ): void {
    const list = root.createDiv({ cls: "am-tracker-list am-inbox-list" });
    if (error) {
      list.createDiv({ cls: "am-error", text: `Cannot read the inbox: ${error}` });
      return;
    }
    if (items.length === 0) {
      list.createDiv({
        cls: "am-empty",
        text: `Nothing waits in the inbox of ${actor.person ? "the person" : this.agent}.`,
      });
      return;
    }
    for (const item of items) {
      const row = list.createDiv({ cls: "am-tracker-item am-inbox-item" });
      row.dataset.id = item.id;
      row.dataset.from = item.from;
      const body = row.createDiv({ cls: "am-tracker-body" });
      const text = body.createEl("a", { cls: "am-tracker-text", text: item.text, href: "#" });
      text.addEventListener("click", (evt) => {
        evt.preventDefault();
        void this.app.workspace.openLinkText(`${item.path}#^${item.id}`, "", false);
      });
      const meta = body.createDiv({ cls: "am-tracker-meta" });
      meta.createSpan({ cls: "am-item-id", text: item.id });
      meta.createSpan({ cls: "am-badge am-inbox-from", text: `from: ${item.from}` });
      meta.createSpan({ cls: "am-badge am-field-state", text: `state: ${item.state}` });
      if (item.promotion)
        meta.createSpan({
          cls: "am-badge am-inbox-promotion",
          text: `promote to: ${item.promotion.area}`,
        });
      for (const reply of item.replies.slice(0, 3))
        body.createDiv({ cls: "am-item-child", text: reply });
      // The panel is a person's door: accepting is approval (docs/inbox.md, "Who may do what").
      const actions = body.createDiv({ cls: "am-inbox-actions" });
      for (const verb of ["accept", "decline"] as const) {
        const button = actions.createEl("button", {
          cls: `am-inbox-${verb}`,
          text: verb === "accept" ? "Accept" : "Decline",
        });
        button.addEventListener("click", () => void this.respond(item, verb));
      }
    }
  }

  /** Accepts or declines an inbox item as the person; a refusal ends in a notice. */
  private async respond(item: InboxItem, verb: "accept" | "decline"): Promise<void> {
    try {
      const done = await answerInboxItem(this.ctx.vault, layoutOf(this.ctx), {
        from: item.from,
        id: item.id,
        verb,
        actor: { person: true, name: this.ctx.settings().defaultAgent },
        date: this.ctx.today(),
        timestamp: localTimestamp(new Date()),
      });
      new Notice(
        done.promotedTo
          ? `Accepted: promoted to ${done.promotedTo.replace(/\[\[|\]\]/g, "")}.`
          : `^${item.id} of ${item.from} is ${done.state}.`,
      );
    } catch (err) {
      new Notice(`Cannot ${verb} ^${item.id}: ${errorMessage(err)}`);
    }
    this.refresh();
  }

  private renderList(root: HTMLElement, data: TrackerData): void {
    const list = root.createDiv({ cls: "am-tracker-list" });
    const label = KIND_LABELS[this.kind].toLowerCase();
    if (data.error) {
      list.createDiv({ cls: "am-error", text: `${data.path}: ${data.error}` });
      return;
    }
    if (!data.exists) {
      list.createDiv({
        cls: "am-empty",
        text: `No ${label} note yet for ${this.agent} (${data.path}).`,
      });
      return;
    }
    const items = data.items.filter((it) => matchesFilter(shownStatus(it), this.filter));
    if (items.length === 0) {
      const which = this.filter === "all" ? "" : `${FILTER_LABELS[this.filter].toLowerCase()} `;
      list.createDiv({ cls: "am-empty", text: `No ${which}${label} for ${this.agent}.` });
      return;
    }
    for (const item of items) this.renderItem(list, data, item);
  }

  private renderItem(list: HTMLElement, data: TrackerData, item: TrackerItem): void {
    const review = this.kind === "reviews" && isReviewItem(item);
    const status = shownStatus(item);
    const row = list.createDiv({ cls: `am-tracker-item is-${status}` });
    if (item.id) row.dataset.id = item.id;
    const dueDays = item.id ? data.due.get(item.id) : undefined;
    row.toggleClass("is-due", dueDays !== undefined);

    const check = row.createEl("input", {
      cls: "task-list-item-checkbox am-tracker-check",
      type: "checkbox",
    });
    // A review loop is never shown ticked: ticking records this round and moves its next date.
    check.checked = !review && status === "done";
    check.disabled = item.id === null || status === "abandoned";
    check.setAttr(
      "aria-label",
      item.id === null
        ? "This item has no block id"
        : review
          ? "Mark this round done (the loop stays open; abandon it to end it)"
          : "Done",
    );
    check.addEventListener("change", () => void this.tick(data.path, item, check));

    const body = row.createDiv({ cls: "am-tracker-body" });
    const text = body.createEl("a", { cls: "am-tracker-text", text: item.text, href: "#" });
    text.addEventListener("click", (evt) => {
      evt.preventDefault();
      void this.app.workspace.openLinkText(
        item.id ? `${data.path}#^${item.id}` : data.path,
        "",
        false,
      );
    });

    const meta = body.createDiv({ cls: "am-tracker-meta" });
    if (item.id) meta.createSpan({ cls: "am-item-id", text: item.id });
    if (status === "in-progress")
      meta.createSpan({ cls: "am-badge am-in-progress", text: "in progress" });
    if (status === "abandoned")
      meta.createSpan({ cls: "am-badge am-abandoned", text: "abandoned" });
    if (isSuperseded(item.fields)) {
      // A superseded entry stays in its note (nothing is deleted); the panel says which replaced it.
      row.addClass("is-superseded");
      const successor = asWikilink(readField(item.fields, FIELD_KEYS.supersededBy));
      const badge = meta.createEl(successor ? "a" : "span", {
        cls: "am-badge am-superseded",
        text: successor?.blockId ? `superseded by ${successor.blockId}` : "superseded",
      });
      if (successor) {
        badge.setAttr("href", "#");
        badge.setAttr("aria-label", `Open the entry that replaced it: ${successor.raw}`);
        badge.addEventListener("click", (evt) => {
          evt.preventDefault();
          const target = `${successor.path}${successor.blockId ? `#^${successor.blockId}` : ""}`;
          void this.app.workspace.openLinkText(target, data.path, false);
        });
      }
    }
    if (dueDays !== undefined) {
      meta.createSpan({
        cls: "am-badge am-due",
        text: dueDays === 0 ? "due today" : `due ${dueDays} d ago`,
      });
    }
    const schedule = review ? readSchedule(item) : null;
    for (const key of BADGE_FIELDS) {
      const value = key === "next" && schedule?.next ? schedule.next : fieldValue(item, key);
      if (value !== null)
        meta.createSpan({
          cls: `am-badge am-field-${key}`,
          text: `${key}: ${stripWikilinkBrackets(value)}`,
        });
    }
    const source = fieldValue(item, FIELD_KEYS.source);
    if (source) {
      for (const target of wikilinkTargets(source)) {
        const link = meta.createEl("a", {
          cls: "am-source-link",
          text: target.split("#")[0] ?? target,
          href: "#",
        });
        link.setAttr("aria-label", `Open the source: ${target}`);
        link.addEventListener("click", (evt) => {
          evt.preventDefault();
          void this.app.workspace.openLinkText(target, data.path, false);
        });
      }
    }

    if (this.kind === "goals") {
      const progress = latestProgress(item);
      if (progress) body.createDiv({ cls: "am-goal-progress", text: progress.raw });
    } else if (this.kind === "proposals" || this.kind === "questions") {
      for (const child of item.children.filter((c) => c.trim() !== "").slice(0, 3)) {
        body.createDiv({ cls: "am-item-child", text: child.trim().replace(/^[-*+]\s+/, "") });
      }
    }
  }

  /** Writes a tick to the note; the vault's `modify` event then re-renders the panel. */
  private async tick(path: string, item: TrackerItem, check: HTMLInputElement): Promise<void> {
    if (!item.id) return;
    const message = await tickTrackerItem(this.ctx.vault, path, item.id, {
      checked: check.checked,
      review: this.kind === "reviews",
      today: this.ctx.today(),
    });
    if (message) new Notice(message);
    this.refresh();
  }
}
