/**
 * The host registry: every AI coding client skillgate's hooks run under, one {@link Host} object
 * each (`claude.ts`, `copilot.ts`), and the few questions asked across them: which host sent a
 * payload ({@link recogniseHost}), which host a kind names ({@link hostFor}), and the tool names
 * of a role over every host ({@link toolNamesOf}).
 *
 * A host object owns everything host-specific: how its payloads look and how to recognise them,
 * its event names, the answer shapes it acts on, its tool names, where its files live, its
 * environment markers, the shape of its hook file, and the wording of texts that name its tools.
 * The rest of skillgate asks the host object and never names a host itself. Adding a host is one
 * module plus its tests, and one entry in {@link HOSTS} (see `docs/architecture.md`, "Hosts").
 *
 * Host modules are on every hook's hot path: they hold constants and small functions only, and
 * import nothing but types and the import-free helpers in `json.ts` and `../base/path.ts`.
 *
 * @module
 */

import { CLAUDE, type ClaudeHost } from "./claude.ts";
import { COPILOT } from "./copilot.ts";
import { CODEX } from "./codex.ts";
import { GEMINI } from "./gemini.ts";

export type {
  HookAnswer,
  HookEventName,
  Host,
  HostAnswers,
  HostEnv,
  HostFolders,
  HostHookFile,
  HostKind,
  HostLayout,
  HostPlaces,
  HostSetupText,
  HostTexts,
  PayloadField,
  ToolRole,
  TranscriptFormat,
} from "./host.ts";
import type { Host, HostKind, HostPlaces, PayloadField, ToolRole } from "./host.ts";

/**
 * Every host, in the order the registry asks them whether a payload is theirs: where two could
 * claim the same payload, the first wins, so a host whose payloads are a more specific shape of
 * another's goes before it.
 */
export const HOSTS: readonly [Host<"gemini">, Host<"codex">, ClaudeHost, Host<"copilot">] = [
  GEMINI,
  CODEX,
  CLAUDE,
  COPILOT,
];

/** Compile-time: the written-out {@link HostKind} is exactly the kinds of {@link HOSTS}. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const KINDS_AGREE: Same<HostKind, (typeof HOSTS)[number]["kind"]> = true;
void KINDS_AGREE;

/** The host `setup` writes for when no host flag is given, and the default of host parameters. */
export const DEFAULT_HOST: ClaudeHost = CLAUDE;

/** Thrown by {@link hostFor} for a kind no host has. */
export class UnknownHostError extends Error {
  /**
   * Makes the error.
   *
   * @param message What was not recognised.
   */
  constructor(message: string) {
    super(message);
    this.name = "UnknownHostError";
  }
}

/**
 * The host of a kind.
 *
 * @param kind A host id.
 * @returns Its host object.
 * @throws {UnknownHostError} When no host has that id.
 */
export function hostFor(kind: HostKind): Host<HostKind> {
  const host = HOSTS.find((h) => h.kind === kind);
  if (!host) throw new UnknownHostError(`Unknown host: ${String(kind).slice(0, 40)}`);
  return host;
}

/** Cursor's common payload fields, which no host sends (`cursor.com/docs/hooks`). */
const CURSOR_FIELDS = ["conversation_id", "generation_id", "workspace_roots", "cursor_version"];

/**
 * Clients that start skillgate's hooks with payloads of their own, and what marks them: Cursor
 * runs the hooks in `~/.claude/settings.json` with Cursor's payloads once its third-party hooks are
 * on; VS Code's agent hooks send `hookEventName` with Claude Code's PascalCase event names and
 * snake_case tool fields (Copilot CLI's camelCase events never are PascalCase). skillgate serves
 * neither: their payloads pass every hook through.
 */
const FOREIGN_CLIENTS: readonly {
  readonly name: string;
  recognise(payload: Readonly<Record<string, unknown>>): boolean;
}[] = [
  { name: "Cursor", recognise: (p) => CURSOR_FIELDS.some((k) => Object.hasOwn(p, k)) },
  {
    name: "VS Code",
    recognise: (p) => typeof p.hookEventName === "string" && /^[A-Z]/.test(p.hookEventName),
  },
];

/**
 * The client that sent a payload skillgate does not serve (Cursor, VS Code), by what only that
 * client sends.
 *
 * @param payload The payload, a JSON object.
 * @returns The client's name, or `undefined`.
 */
export function foreignClientOf(payload: Readonly<Record<string, unknown>>): string | undefined {
  return FOREIGN_CLIENTS.find((c) => c.recognise(payload))?.name;
}

/**
 * Which host sent a payload: each host is asked, in {@link HOSTS} order, and the first that
 * recognises it wins. A payload no host recognises, or one of a client skillgate does not serve
 * ({@link foreignClientOf}), is an explicit outcome (`undefined`), never a guess.
 *
 * @param payload The payload, a JSON object.
 * @returns The host, or `undefined` when none recognises it.
 */
export function recogniseHost(
  payload: Readonly<Record<string, unknown>>,
): Host<HostKind> | undefined {
  if (foreignClientOf(payload) !== undefined) return undefined;
  return HOSTS.find((h) => h.recognise(payload));
}

/**
 * The names of one role's tools over every host, deduplicated, in host order (the Skill tool of
 * any host, say). For decisions that do not depend on which host sent the payload.
 *
 * @param role The role.
 * @returns The tool names.
 */
export function toolNamesOf(role: ToolRole): readonly string[] {
  return [...new Set(HOSTS.flatMap((h) => h.tools[role]))];
}

/**
 * The payload field names of one field of the event model over every host, in host order: a
 * payload is read tolerantly, so a host that mixes casings (Copilot CLI's `agentStop` carries
 * `stop_hook_active`) reads whole.
 *
 * @param field The event model's field.
 * @returns The names to try, first present wins.
 */
export function fieldNamesOf(field: PayloadField): readonly string[] {
  let names = fieldNames.get(field);
  if (!names) {
    names = [...new Set(HOSTS.flatMap((h) => h.fields[field] ?? []))];
    fieldNames.set(field, names);
  }
  return names;
}

/** {@link fieldNamesOf}, worked out once per field. */
const fieldNames = new Map<PayloadField, readonly string[]>();

/**
 * The canonical name of an event name as a payload declares it: the sending host's own names
 * first, then every other host's, else the name as given.
 *
 * @param host The host that sent it.
 * @param declared The declared event name.
 * @returns The canonical name (`PreToolUse`, `Stop`, ...), or `declared` when no host knows it.
 */
export function canonicalEventName(host: Host<HostKind>, declared: string): string {
  const key = declared.replace(/[^A-Za-z0-9]/g, "").toLowerCase();
  if (Object.hasOwn(host.eventNames, key)) return host.eventNames[key];
  for (const other of HOSTS) {
    if (Object.hasOwn(other.eventNames, key)) return other.eventNames[key];
  }
  return declared;
}

/**
 * Each host's config directory.
 *
 * @param places Home and environment.
 * @returns The directory of every host, by kind.
 */
export function hostConfigDirs(places: HostPlaces): Record<HostKind, string> {
  const out = {} as Record<HostKind, string>;
  for (const h of HOSTS) out[h.kind] = h.configDir(places);
  return out;
}
