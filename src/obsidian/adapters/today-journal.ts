/**
 * Where today's journal is (docs/plugin.md, "Ribbon and commands"): the default agent's journal
 * from the layout, or, when
 * `useDailyNotes` is on, the Daily notes core plugin's folder and date format.
 *
 * The Daily notes options are not public API: they are read from `app.internalPlugins` with every
 * step checked at run time, and any surprise falls back to the layout with a message saying why.
 */
import { moment, normalizePath, type App } from "obsidian";
import type { MemoryLayout } from "../../core/layout";
import type { Settings } from "../../core/settings";
import { err, ok, type Result } from "../../core/util/result";

/**
 * Obsidian's bundled moment, called as a function. The `obsidian` typings declare it as a module
 * namespace, which TypeScript does not let us call, so it is narrowed to the one call we make.
 */
const formatDate = moment as unknown as (date?: Date) => { format(format: string): string };

/** The Daily notes core plugin's options, as far as we use them. */
export interface DailyNotesOptions {
  folder: string;
  /** moment.js format of the note's name; Obsidian's default is `YYYY-MM-DD`. */
  format: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/**
 * Reads the Daily notes core plugin's folder and format.
 * @returns the options, or why they could not be read (plugin missing or disabled, unknown shape).
 */
export function readDailyNotesOptions(app: App): Result<DailyNotesOptions> {
  const internal: unknown = (app as unknown as Record<string, unknown>).internalPlugins;
  if (!isRecord(internal) || typeof internal.getPluginById !== "function") {
    return err("this version of Obsidian does not expose its core plugins");
  }
  const plugin: unknown = (internal.getPluginById as (id: string) => unknown).call(
    internal,
    "daily-notes",
  );
  if (!isRecord(plugin)) return err("the Daily notes core plugin is not available");
  if (plugin.enabled !== true) return err("the Daily notes core plugin is turned off");
  const instance = plugin.instance;
  const options = isRecord(instance) ? instance.options : undefined;
  if (!isRecord(options)) return err("the Daily notes options could not be read");
  const folder = typeof options.folder === "string" ? options.folder.trim() : "";
  const format =
    typeof options.format === "string" && options.format.trim()
      ? options.format.trim()
      : "YYYY-MM-DD";
  return ok({ folder, format });
}

/** Where today's journal is expected, and, when Daily notes could not be used, why. */
export interface TodayJournal {
  path: string;
  source: "layout" | "daily-notes";
  /** Set when `useDailyNotes` is on but the layout's path was used instead. */
  fallbackReason?: string;
}

/**
 * Today's journal path for the default agent.
 * @param today `YYYY-MM-DD` (local date).
 * @param now the moment used for the Daily notes format (tests pass a fixed date).
 */
export function todayJournal(
  app: App,
  settings: Settings,
  layout: MemoryLayout,
  today: string,
  now?: Date,
): TodayJournal {
  const fromLayout = (): string => layout.journalPath(settings.defaultAgent, today);
  if (!settings.useDailyNotes) return { path: fromLayout(), source: "layout" };
  const read = readDailyNotesOptions(app);
  if (!read.ok) return { path: fromLayout(), source: "layout", fallbackReason: read.error };
  const options = read.value;
  const name = formatDate(now).format(options.format);
  const path = normalizePath(options.folder ? `${options.folder}/${name}.md` : `${name}.md`);
  return { path, source: "daily-notes" };
}
