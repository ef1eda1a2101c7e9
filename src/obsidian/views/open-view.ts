/** Opens (or reveals) one of the plugin's sidebar views. */
import type { App, WorkspaceLeaf } from "obsidian";

/**
 * Reveals the first leaf of `type`, or opens one in the right sidebar. Views are looked up through
 * the workspace each time, never kept on the plugin (official guideline).
 * @returns the leaf, or `null` when the workspace could not give a sidebar leaf.
 */
export async function activateView(app: App, type: string): Promise<WorkspaceLeaf | null> {
  const { workspace } = app;
  let leaf: WorkspaceLeaf | null = workspace.getLeavesOfType(type)[0] ?? null;
  if (!leaf) {
    leaf = workspace.getRightLeaf(false);
    if (!leaf) return null;
    await leaf.setViewState({ type, active: true });
  }
  await workspace.revealLeaf(leaf);
  return leaf;
}
