/**
 * A hook's front: the part of a hook process that runs before its logic is loaded. It reads the
 * payload and the hook's switch and ends the process when the hook has nothing to do (switched
 * off, or a payload that cannot concern it), so the most common calls load only this module and
 * what it imports; otherwise it loads the hook's core (the runner and the hook's logic, bundled
 * as a file of its own: `hooks/dist/<hook>_core.js`) and hands it what it has read.
 *
 * A switched-off hook says nothing at all: not about its payload, not in its log. A config file
 * that cannot be read, or a config file the hook may not read, is left to the core, which reports
 * it.
 *
 * @module
 */

import { configNumber, type ConfigState, readSwitch, type SwitchName } from "../base/config.ts";
import { sanitizeLine } from "../base/sanitize.ts";
import { stateRoot } from "../host/places.ts";
import { DEFAULT_DEADLINE_MS, expiry, readStdin, StdinError } from "./io.ts";

/**
 * How long past its deadline (config `hook_deadline_ms`) a hook process may live: then its guard
 * ends it, with exit 0 and one stderr line, whatever it still waits for (a path that became a FIFO
 * between a check and an open, say). Above the runner's own second of grace for a committed
 * answer, and the time to load the core.
 */
export const GUARD_GRACE_MS = 2000;

/**
 * Arms the guard of a hook process ({@link GUARD_GRACE_MS}): past its deadline and the grace, it
 * writes one stderr line and ends the process (exit 0). It uses an `expiry`, which keeps no
 * process alive and costs 0.06 ms; it fires while the process waits (on I/O, a timer), which is
 * all a hook does besides computing: no payload path is opened or read so that the process itself
 * blocks (`openRegularFile`).
 *
 * @param config The config file as read (for `hook_deadline_ms`), when it could be.
 */
export function armGuard(config?: ConfigState): void {
  const deadlineMs = config
    ? configNumber(config, "hook_deadline_ms", DEFAULT_DEADLINE_MS)
    : DEFAULT_DEADLINE_MS;
  expiry(deadlineMs + GUARD_GRACE_MS, () => new Error("guard")).catch(() => {
    const line = `skillgate: DEADLINE hook ended by its guard ${GUARD_GRACE_MS} ms past its ` +
      `${deadlineMs} ms deadline\n`;
    try {
      Deno.stderr.writeSync(new TextEncoder().encode(line));
    } catch {
      // Nowhere left to say it.
    }
    Deno.exit(0);
  });
}

/** What a hook's front decides from. */
export interface HookFront {
  /** The switch that turns the hook on or off. */
  readonly switchName: SwitchName;
  /**
   * Whether a payload may concern the hook, from its raw text alone (`false` ends the process
   * with no answer). Default: every payload may.
   */
  mayConcern?(raw: string): boolean;
  /**
   * Whether the hook's answer to a payload is certainly none, asked once the switch is on
   * (`true` ends the process with no answer and no log line). Never throws. Default: never.
   */
  settles?(raw: string): Promise<boolean>;
}

/** A hook's core, as its front loads it. */
export interface HookCore {
  /**
   * Runs the hook on what the front read and prints its answer.
   *
   * @param input The payload's text, or why it could not be read.
   * @param config The config file as the front read it, when it could.
   */
  run(input: string | StdinError, config?: ConfigState): Promise<void>;
}

/**
 * Runs a hook: reads stdin, ends at once when the payload cannot concern the hook or its switch
 * is off, and otherwise loads the core and runs it. Never throws: a failure before the core is
 * loaded is left for the core to report, and a core that cannot be loaded (a file missing from
 * the install) gives one stderr line and no answer.
 *
 * @param front The hook's front.
 * @param load Loads the hook's core.
 * @param guard Arm the process's guard ({@link armGuard}) once the config is read: a hook
 * entry's own process does; a test calling this in its process does not.
 * @returns When the answer is printed.
 */
export async function runFront(
  front: HookFront,
  load: () => Promise<HookCore>,
  guard = false,
): Promise<void> {
  let input: string | StdinError;
  try {
    input = await readStdin();
  } catch (err) {
    input = err instanceof StdinError ? err : new StdinError(String(err));
  }
  if (typeof input === "string" && front.mayConcern && !front.mayConcern(input)) return;
  let config: ConfigState | undefined;
  try {
    const sw = readSwitch(front.switchName, stateRoot);
    if (sw.off) return;
    config = sw.config;
  } catch {
    // The core reads the switch again and reports what went wrong.
  }
  if (guard) armGuard(config);
  if (typeof input === "string" && front.settles && await front.settles(input)) return;
  let core: HookCore;
  try {
    core = await load();
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    const line = `skillgate: ERROR Cannot load the hook's core (reinstall skillgate): ${why}`;
    try {
      Deno.stderr.writeSync(new TextEncoder().encode(sanitizeLine(line, 1000) + "\n"));
    } catch {
      // Nowhere left to say it.
    }
    return;
  }
  await core.run(input, config);
}
