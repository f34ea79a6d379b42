/**
 * skillgate: Claude Code and GitHub Copilot CLI hooks that make a model use skills and agents the
 * way their authors meant.
 *
 * - **Skill routing** (UserPromptSubmit): scores a prompt against installed skills' `triggers:`
 *   and adds one line naming the skill that fits.
 * - **Skill contracts** (Stop): a skill declares outputs that must exist before it is done; a stop
 *   without them is blocked once, naming what is missing.
 * - **Skill-to-agent redirect** (PreToolUse, plus a Stop fallback): a `Skill` call that names an
 *   agent becomes clear guidance to use the Agent tool.
 *
 * This module is the library surface: the catalog of installed skills and agents, the switches,
 * the host registry (one object per AI coding client), the hook payload model and answers, and
 * the hook table.
 *
 * @example Find an installed skill
 * ```ts
 * import { findSkill, loadCatalog } from "@skillgate/skillgate";
 *
 * const catalog = await loadCatalog({ claudeConfigDir: `${Deno.env.get("HOME")}/.claude` });
 * console.log(findSkill(catalog, "investigate")?.triggers);
 * ```
 *
 * @module
 */

export {
  type AgentEntry,
  agentNames,
  type Catalog,
  type CatalogOptions,
  type CatalogSource,
  findSkill,
  firstInstruction,
  isAgent,
  loadCatalog,
  type SkillEntry,
  skillNames,
} from "./lib/catalog/catalog.ts";
export {
  CONFIG_KEYS,
  type ConfigKeySpec,
  type ConfigState,
  parseSwitchValue,
  readConfig,
  resolveSwitch,
  SWITCH_DEFAULT,
  SWITCH_ENV,
  SWITCH_NAMES,
  type SwitchName,
  type SwitchResolution,
  writeConfigValue,
} from "./lib/base/config.ts";
export {
  type HookEvent,
  parsePayload,
  PayloadError,
  UnknownHostPayloadError,
} from "./lib/host/payload.ts";
export { contextAnswer, denyAnswer, stopBlockAnswer } from "./lib/host/answer.ts";
export {
  canonicalEventName,
  DEFAULT_HOST,
  fieldNamesOf,
  type HookAnswer,
  type HookEventName,
  type Host,
  type HostAnswers,
  hostConfigDirs,
  type HostEnv,
  hostFor,
  type HostHookFile,
  type HostKind,
  type HostLayout,
  type HostPlaces,
  HOSTS,
  type HostSetupText,
  type HostTexts,
  type PayloadField,
  recogniseHost,
  toolNamesOf,
  type ToolRole,
  type TranscriptFormat,
  UnknownHostError,
} from "./lib/host/mod.ts";
export { CLAUDE, type ClaudeHost } from "./lib/host/claude.ts";
export { COPILOT, COPILOT_HOOK_FILE } from "./lib/host/copilot.ts";
export type { DesiredHook, HookFileFormat } from "./lib/host/hook_file.ts";
export type { JsonObject } from "./lib/host/json.ts";
export {
  denoRunArgs,
  type HookId,
  type HookPermissions,
  type HookRow,
  HOOKS,
  type HostRegistration,
  hostRegistration,
  permissionFlags,
  type PermissionPaths,
} from "./lib/hook/table.ts";
export {
  type Frontmatter,
  type FrontmatterSplit,
  parseFrontmatter,
  splitFrontmatter,
} from "./lib/catalog/frontmatter.ts";
export type { LogFile } from "./lib/hook/log.ts";
export { claudeConfigDir, stateRoot } from "./lib/base/locations.ts";
export {
  checkSkillRedirect,
  isSkillTool,
  type RedirectDecision,
  redirectMessage,
  type RedirectPassReason,
  type RedirectSources,
  SKILL_IS_AGENT_REDIRECT,
  skillTargetName,
} from "./lib/redirect/redirect.ts";
export { agentCount, isKnownAgent, KNOWN_AGENTS } from "./lib/redirect/known_agents.ts";
export { SKILL_IS_AGENT_REDIRECT_COPILOT } from "./lib/redirect/redirect.ts";
export {
  DEFAULT_ROUTE_SKILLS,
  DEFAULT_ROUTE_THRESHOLD,
  type HintMode,
  isRoutable,
  MAX_ROUTE_PROMPT_CHARS,
  type NoRouteReason,
  type RouteCandidate,
  type RouteDecision,
  routeHint,
  type RouteOptions,
  routePrompt,
  type SkillPool,
  skipReason,
} from "./lib/routing/route.ts";
export type { IntentPattern, RouteSkill } from "./lib/routing/route_skill.ts";
export {
  type CompiledTrigger,
  compileTrigger,
  CONCEPTS,
  PHRASES,
  type PreparedPrompt,
  preparePrompt,
  scoreTrigger,
  tokenize,
  type TriggerScore,
} from "./lib/routing/score.ts";
export {
  type Contract,
  type ContractValidation,
  validateContract,
} from "./lib/contracts/schema.ts";
export { type ContractItem, type ContractKind } from "./lib/contracts/items/mod.ts";
export { type ItemBase } from "./lib/contracts/items/kind.ts";
export { type ReportLabelsItem } from "./lib/contracts/items/report_labels.ts";
export { type CheckAfterLastEditItem } from "./lib/contracts/items/check_after_last_edit.ts";
export { type SelectedSpecialistsItem } from "./lib/contracts/items/selected_specialists.ts";
export { type AgentDispatchItem } from "./lib/contracts/items/agent_dispatch.ts";
export { DEFAULT_MATCHERS } from "./lib/contracts/matchers.ts";
export {
  checkContract,
  type CheckOptions,
  type CheckResult,
  type EarlyEnd,
  type ItemResult,
  type ItemStatus,
} from "./lib/contracts/check.ts";
export { renderBlockLine, type RenderOptions } from "./lib/contracts/block_line.ts";
export { EXIT_CODES, EXIT_WORDS } from "./lib/contracts/exit_codes.ts";
export { classifyCommand, type CommandVerdict } from "./lib/contracts/commands/classify.ts";
export {
  isRegexError,
  loadUserRegexEngine,
  MAX_REGEX_PROGRAM,
  type RegexBudget,
  type UserRegex,
  type UserRegexEngine,
  type UserRegexError,
  type UserRegexOptions,
} from "./lib/base/user_regex.ts";
export type {
  LoadVia,
  ReadRunOptions,
  ReadStats,
  RunRead,
  SkillLoad,
  SkillSelector,
  TaskNotification,
  ToolCall,
  ToolResult,
  TranscriptMessage,
  TranscriptRun,
} from "./lib/transcript/model.ts";
export { readTranscriptRun } from "./lib/transcript/read.ts";
