/**
 * skillgate's GitHub Copilot CLI hook file: `~/.copilot/hooks/skillgate.json` (or
 * `$COPILOT_HOME/hooks/skillgate.json`), or the project's `.github/hooks/skillgate.json`. The format
 * is `{"version":1,"hooks":{"<camelCaseEvent>":[{"type":"command","bash":…,"timeoutSec":…}]}}`,
 * with the anchored tool-name `matcher` on `preToolUse` (Copilot CLI 1.0.63+; older versions run the
 * hook for every tool and the hook itself passes the others through).
 *
 * The file is skillgate's by name, but items a user added to it are kept: ownership is per item, by
 * command recognition, exactly as in `settings.json`.
 *
 * @module
 */

import { join } from "node:path";
import {
  type CommandOwner,
  dedupeRemoved,
  type DesiredHook,
  type HookChange,
  isJsonObject,
  type JsonObject,
  type OwnedHook,
} from "./claude_settings.ts";

/** The hook file's name. */
export const COPILOT_HOOK_FILE = "skillgate.json";

/** Where Copilot's hook files live. */
export interface CopilotLocation {
  /** The user's home directory. */
  readonly home: string;
  /** `COPILOT_HOME`, when set. */
  readonly copilotHome?: string;
  /** The project root, for `--project`. */
  readonly projectDir?: string;
}

/**
 * The path of skillgate's Copilot CLI hook file.
 *
 * @param loc Home, `COPILOT_HOME` and the project root.
 * @returns `<project>/.github/hooks/skillgate.json` when a project is given, else
 *   `$COPILOT_HOME/hooks/skillgate.json` or `~/.copilot/hooks/skillgate.json`.
 */
export function copilotHooksPath(loc: CopilotLocation): string {
  if (loc.projectDir) return join(loc.projectDir, ".github", "hooks", COPILOT_HOOK_FILE);
  return join(loc.copilotHome ?? join(loc.home, ".copilot"), "hooks", COPILOT_HOOK_FILE);
}

function itemCommand(item: unknown): string | undefined {
  if (!isJsonObject(item)) return undefined;
  if (item.type !== undefined && item.type !== "command") return undefined;
  if (typeof item.bash === "string") return item.bash;
  if (typeof item.command === "string") return item.command;
  return undefined;
}

function copilotItem(d: DesiredHook): JsonObject {
  const item: JsonObject = { type: "command", bash: d.command, timeoutSec: d.timeout };
  if (d.matcher !== undefined) item.matcher = d.matcher;
  return item;
}

/**
 * Lists skillgate's registrations in a Copilot hook file.
 *
 * @param doc The parsed file.
 * @param owner The command recogniser.
 * @returns The registrations, in file order.
 */
export function listOwnedCopilotHooks(doc: unknown, owner: CommandOwner): OwnedHook[] {
  const found: OwnedHook[] = [];
  if (!isJsonObject(doc) || !isJsonObject(doc.hooks)) return found;
  for (const [event, items] of Object.entries(doc.hooks)) {
    if (!Array.isArray(items)) continue;
    for (const item of items) {
      const command = itemCommand(item);
      if (command === undefined) continue;
      const own = owner(command, event);
      if (!own || !isJsonObject(item)) continue;
      found.push({
        hookId: own.hookId,
        event,
        matcher: typeof item.matcher === "string" ? item.matcher : undefined,
        command,
        timeout: typeof item.timeoutSec === "number" ? item.timeoutSec : undefined,
      });
    }
  }
  return found;
}

/**
 * Merges skillgate's wanted registrations into a Copilot hook file: the first item of each wanted
 * hook is updated in place, every other skillgate item is removed, wanted hooks not yet present are
 * appended, and foreign items and keys are kept. When nothing is left but `version` and an empty
 * `hooks`, the result is `undefined` (the file is removed).
 *
 * @param doc The parsed file (`undefined` when missing).
 * @param desired The registrations wanted (camelCase events, `timeout` in seconds).
 * @param owner The command recogniser.
 * @returns The new file content (or `undefined`) and the changes.
 * @throws {Error} When the file has a shape that cannot be merged safely.
 */
export function mergeCopilotHooks(
  doc: unknown,
  desired: readonly DesiredHook[],
  owner: CommandOwner,
): { doc: JsonObject | undefined; changes: HookChange[] } {
  if (doc !== undefined && !isJsonObject(doc)) {
    throw new Error("The hook file is not a JSON object");
  }
  const out: JsonObject = structuredClone(doc ?? { version: 1, hooks: {} });
  if (out.version === undefined) out.version = 1;
  if (out.version !== 1) {
    throw new Error(`Unsupported hook file version ${JSON.stringify(out.version)} (expected 1)`);
  }
  if (out.hooks === undefined) out.hooks = {};
  if (!isJsonObject(out.hooks)) throw new Error('"hooks" is not a JSON object');
  const hooks = out.hooks;
  for (const d of desired) {
    if (hooks[d.event] !== undefined && !Array.isArray(hooks[d.event])) {
      throw new Error(`"hooks.${d.event}" is not a JSON array`);
    }
  }
  const placed = new Set<DesiredHook>();
  const state = new Map<string, "exact" | "stale">();
  const removed: HookChange[] = [];
  const key = (id: string | undefined, event: string) => `${id ?? ""}\u0000${event}`;
  for (const event of Object.keys(hooks)) {
    const items = hooks[event];
    if (!Array.isArray(items)) continue;
    let touched = false;
    const kept: unknown[] = [];
    for (const item of items) {
      const command = itemCommand(item);
      const own = command === undefined ? null : owner(command, event);
      if (!own) {
        kept.push(item);
        continue;
      }
      touched = true;
      const want = desired.find((d) =>
        !placed.has(d) && d.hookId === own.hookId && d.event === event
      );
      if (want) {
        placed.add(want);
        const fresh = copilotItem(want);
        const exact = JSON.stringify(Object.entries(item as JsonObject).sort()) ===
          JSON.stringify(Object.entries(fresh).sort());
        const previous = state.get(key(want.hookId, event));
        state.set(key(want.hookId, event), exact && previous !== "stale" ? "exact" : "stale");
        kept.push(exact ? item : fresh);
      } else if (desired.some((d) => d.hookId === own.hookId && d.event === event)) {
        state.set(key(own.hookId, event), "stale");
      } else {
        removed.push({ hookId: own.hookId, event, action: "removed" });
      }
    }
    if (!touched) continue;
    if (kept.length > 0) hooks[event] = kept;
    else delete hooks[event];
  }
  const changes: HookChange[] = [];
  for (const d of desired) {
    if (!placed.has(d)) {
      const list = Array.isArray(hooks[d.event]) ? hooks[d.event] as unknown[] : [];
      hooks[d.event] = [...list, copilotItem(d)];
    }
    const s = state.get(key(d.hookId, d.event));
    changes.push({
      hookId: d.hookId,
      event: d.event,
      action: s === undefined ? "added" : s === "exact" ? "unchanged" : "updated",
    });
  }
  changes.push(...dedupeRemoved(removed));
  const onlyShell = Object.keys(out).every((k) => k === "version" || k === "hooks");
  if (onlyShell && Object.keys(hooks).length === 0) return { doc: undefined, changes };
  return { doc: out, changes };
}
