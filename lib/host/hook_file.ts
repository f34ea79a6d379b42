/**
 * Merging skillgate's registrations into a host's hook file, for every host: one algorithm, with
 * the shape of each host's file ({@link HookFileFormat}) supplied by the host module
 * (`claude.ts`: `settings.json`; `copilot.ts`: `hooks/skillgate.json`).
 *
 * A hook file maps event names to lists of *slots*. A slot holds one or more command items: in
 * Claude Code a slot is a matcher group (`{matcher, hooks: [items]}`), in Copilot CLI the item
 * itself. Ownership is per item, by command recognition ({@link CommandOwner}): an item skillgate
 * does not recognise is never touched, whatever file it is in.
 *
 * @module
 */

import { isJsonObject, type JsonObject } from "./json.ts";

/**
 * Decides whether a registered command is skillgate's, and for which hook.
 *
 * @param command The command line.
 * @param event The event it is registered on.
 * @returns `null` for a foreign command; else the hook id (`undefined` when stale).
 */
export type CommandOwner = (command: string, event: string) => { hookId?: string } | null;

/** One hook registration skillgate wants in a hook file. */
export interface DesiredHook {
  /** The hook id from the hook table. */
  readonly hookId: string;
  /** The event, as the host names it in its file (`PreToolUse`, `preToolUse`, ...). */
  readonly event: string;
  /** The tool matcher, for events that take one. */
  readonly matcher?: string;
  /** The shell command line. */
  readonly command: string;
  /** The host timeout, in seconds. */
  readonly timeout: number;
}

/** What happened to one registration. */
export interface HookChange {
  /** The hook id; `undefined` for a stale skillgate entry no hook claims any more. */
  readonly hookId?: string;
  /** The event. */
  readonly event: string;
  /** `added`: newly registered; `updated`: a stale or duplicate entry replaced; `removed`. */
  readonly action: "added" | "updated" | "unchanged" | "removed";
}

/** A registration of skillgate's found in a hook file. */
export interface OwnedHook {
  /** The hook id; `undefined` when stale. */
  readonly hookId?: string;
  /** The event. */
  readonly event: string;
  /** Its tool matcher, if any. */
  readonly matcher?: string;
  /** The command line. */
  readonly command: string;
  /** The timeout in seconds, if any. */
  readonly timeout?: number;
}

/** The result of a pure merge. */
export interface MergeOutcome {
  /** The new file content (the input is never mutated); `undefined` to remove the file. */
  readonly doc: JsonObject | undefined;
  /** One change per registration skillgate touched or kept. */
  readonly changes: HookChange[];
}

/** The shape of one host's hook file: what the shared merge needs to know about it. */
export interface HookFileFormat {
  /**
   * The document to merge into: a copy of the file, or a new one when it is missing. Throws when
   * the file's top level cannot be merged safely (not an object, an unknown version, a `hooks` value
   * that is not an object).
   */
  open(doc: unknown): JsonObject;
  /** The command items of a slot; `undefined` when the slot is not one skillgate reads (kept). */
  items(slot: unknown): readonly unknown[] | undefined;
  /** The command of an item, when it is a command item; else `undefined` (the item is foreign). */
  command(item: unknown): string | undefined;
  /** The matcher and timeout of an item in its slot, for a listing. */
  describe(slot: JsonObject, item: JsonObject): { matcher?: string; timeout?: number };
  /** Whether a slot holding only skillgate's item for a wanted hook already is what it wants. */
  isExact(slot: JsonObject, want: DesiredHook): boolean;
  /** The slot brought up to date for a wanted hook (`exact`: as {@link isExact} said). */
  update(slot: JsonObject, want: DesiredHook, exact: boolean): JsonObject;
  /** A new slot for a wanted hook, appended to its event's list. */
  create(want: DesiredHook): JsonObject;
  /** A slot that keeps only the given (foreign) items. */
  keep(slot: JsonObject, items: unknown[]): JsonObject;
  /**
   * The finished document, or `undefined` to remove the file.
   *
   * @param out The merged document.
   * @param hooks Its merged `hooks` object (possibly not attached to `out` yet).
   * @param original The file as it was (`undefined` when missing).
   * @param desired The registrations wanted.
   */
  close(
    out: JsonObject,
    hooks: JsonObject,
    original: unknown,
    desired: readonly DesiredHook[],
  ): JsonObject | undefined;
}

/**
 * Lists skillgate's registrations in a hook file.
 *
 * @param format The host's file format.
 * @param doc The parsed file.
 * @param owner The command recogniser.
 * @returns The registrations, in file order.
 */
export function listOwnedHooks(
  format: HookFileFormat,
  doc: unknown,
  owner: CommandOwner,
): OwnedHook[] {
  const found: OwnedHook[] = [];
  if (!isJsonObject(doc) || !isJsonObject(doc.hooks)) return found;
  for (const [event, slots] of Object.entries(doc.hooks)) {
    if (!Array.isArray(slots)) continue;
    for (const slot of slots) {
      const items = format.items(slot);
      if (!items || !isJsonObject(slot)) continue;
      for (const item of items) {
        const command = format.command(item);
        if (command === undefined) continue;
        const own = owner(command, event);
        if (!own || !isJsonObject(item)) continue;
        found.push({ hookId: own.hookId, event, ...format.describe(slot, item), command });
      }
    }
  }
  return found;
}

/**
 * Merges skillgate's wanted registrations into a hook file.
 *
 * Per item: an item is skillgate's only when `owner` recognises its command. For each wanted hook
 * the first slot that holds only that hook's item is kept in place (brought up to date); every other
 * skillgate item (a duplicate, a stale path or version, a hook whose switch is off) is removed, and
 * a slot or event list left empty by that removal goes too. A wanted hook with no such slot gets a
 * new slot at the end of its event list. Foreign slots and items are kept as they are, in their
 * order; every other key is kept. What an emptied file becomes is the format's choice.
 *
 * @param format The host's file format.
 * @param doc The parsed file (`undefined` for a missing file).
 * @param desired The registrations wanted (none, to uninstall).
 * @param owner The command recogniser.
 * @returns The new file content and the changes.
 * @throws {Error} When the file or its `hooks` value has a shape that cannot be merged safely.
 */
export function mergeHooks(
  format: HookFileFormat,
  doc: unknown,
  desired: readonly DesiredHook[],
  owner: CommandOwner,
): MergeOutcome {
  const out = format.open(doc);
  const hooks: JsonObject = isJsonObject(out.hooks) ? out.hooks : {};
  for (const d of desired) {
    if (hooks[d.event] !== undefined && !Array.isArray(hooks[d.event])) {
      throw new Error(`"hooks.${d.event}" is not a JSON array`);
    }
  }
  const placed = new Set<DesiredHook>();
  const seen = new Map<string, "exact" | "stale">();
  const removed: HookChange[] = [];
  const key = (id: string | undefined, event: string) => `${id ?? ""}\u0000${event}`;

  for (const event of Object.keys(hooks)) {
    const slots = hooks[event];
    if (!Array.isArray(slots)) continue;
    const kept: unknown[] = [];
    let touched = false;
    for (const slot of slots) {
      const items = isJsonObject(slot) ? format.items(slot) : undefined;
      if (!items || !isJsonObject(slot)) {
        kept.push(slot);
        continue;
      }
      const owns = items.map((item) => {
        const command = format.command(item);
        return command === undefined ? null : owner(command, event);
      });
      if (owns.every((o) => o === null)) {
        kept.push(slot);
        continue;
      }
      touched = true;
      const own = owns[0];
      const want = items.length === 1 && own
        ? desired.find((d) => !placed.has(d) && d.hookId === own.hookId && d.event === event)
        : undefined;
      if (want) {
        placed.add(want);
        const exact = format.isExact(slot, want);
        const previous = seen.get(key(want.hookId, event));
        seen.set(key(want.hookId, event), exact && previous !== "stale" ? "exact" : "stale");
        kept.push(format.update(slot, want, exact));
        continue;
      }
      const foreign = items.filter((_, i) => owns[i] === null);
      owns.forEach((o) => {
        if (!o) return;
        const wanted = desired.some((d) => d.hookId === o.hookId && d.event === event);
        if (wanted) seen.set(key(o.hookId, event), "stale");
        else removed.push({ hookId: o.hookId, event, action: "removed" });
      });
      if (foreign.length > 0) kept.push(format.keep(slot, foreign));
    }
    if (!touched) continue;
    if (kept.length > 0) hooks[event] = kept;
    else delete hooks[event];
  }

  const changes: HookChange[] = [];
  for (const d of desired) {
    if (!placed.has(d)) {
      const list = Array.isArray(hooks[d.event]) ? hooks[d.event] as unknown[] : [];
      hooks[d.event] = [...list, format.create(d)];
      placed.add(d);
    }
    const state = seen.get(key(d.hookId, d.event));
    changes.push({
      hookId: d.hookId,
      event: d.event,
      action: state === undefined ? "added" : state === "exact" ? "unchanged" : "updated",
    });
  }
  changes.push(...dedupeRemoved(removed));
  return { doc: format.close(out, hooks, doc, desired), changes };
}

/**
 * Collapses removals of the same hook on the same event into one change.
 *
 * @param removed The removals, one per item.
 * @returns One removal per hook and event.
 */
export function dedupeRemoved(removed: readonly HookChange[]): HookChange[] {
  const out: HookChange[] = [];
  for (const r of removed) {
    if (!out.some((o) => o.hookId === r.hookId && o.event === r.event)) out.push(r);
  }
  return out;
}
