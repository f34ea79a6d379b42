/**
 * The tool-name groups the transcript builder and the contract checks use, over every host (a
 * run's tool calls carry the names the host's hooks see), from the host registry.
 *
 * @module
 */

import { toolNamesOf } from "../host/mod.ts";

/**
 * The tool names of an edit over every host (a run's tool calls carry the names the host's hooks
 * see): a file change that `check_after_last_edit` waits on.
 */
export const EDIT_TOOLS: readonly string[] = toolNamesOf("edit");

/** The tool names of a subagent dispatch over every host (`Agent`, `Task`, `spawn_agent`, ...). */
export const AGENT_TOOLS: readonly string[] = toolNamesOf("agent");

/** The tool names of a shell command over every host (all take a `command` input). */
export const SHELL_TOOLS: readonly string[] = toolNamesOf("shell");
