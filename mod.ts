/**
 * skillgate: hooks for AI coding clients (Claude Code, GitHub Copilot CLI, Codex CLI) that make a model
 * use skills and agents the way their authors meant.
 *
 * - **Skill routing** (UserPromptSubmit): {@link suggestSkill} scores a prompt against the
 *   installed skills' `triggers:` and gives the one line naming the skill that fits.
 * - **Skill contracts** (Stop): {@link checkTranscript} checks a skill's last run against the
 *   outputs its contract declares; {@link contractReport} lists the recorded outcomes.
 * - **Skill-to-agent redirect** (PreToolUse, plus a Stop fallback): {@link checkSkillRedirect}
 *   turns a `Skill` call that names an agent into guidance to use the Agent tool.
 * - **The catalog**: {@link loadCatalog} finds the installed skills and agents the way the host
 *   does.
 *
 * This module is the library surface. The hooks themselves are the `./hooks/*` exports and the CLI
 * is `./cli`; every other module is internal: importable by path, but not promised.
 *
 * @example Find an installed skill
 * ```ts
 * import { findSkill, loadCatalog } from "@skillgate/skillgate";
 *
 * const home = Deno.env.get("HOME") ?? "";
 * const catalog = await loadCatalog({
 *   hostFolders: { configDir: `${home}/.claude`, home, layout: { userSkills: "skills" } },
 * });
 * console.log(findSkill(catalog, "investigate")?.triggers);
 * ```
 *
 * @module
 */

export {
  type AgentEntry,
  type Catalog,
  type CatalogOptions,
  type CatalogSource,
  findSkill,
  isAgent,
  loadCatalog,
  type SkillEntry,
} from "./lib/catalog/catalog.ts";
export type { OverlayOrigin } from "./lib/catalog/overlay_index.ts";
export {
  type RouteSuggestion,
  type SkillScore,
  type SuggestOptions,
  suggestSkill,
} from "./lib/routing/suggest.ts";
export type { HintMode } from "./lib/routing/route.ts";
export {
  checkTranscript,
  type RunSummary,
  type TranscriptCheck,
  type TranscriptCheckOptions,
} from "./lib/contracts/check_transcript.ts";
export type { CheckResult, EarlyEnd, ItemResult, ItemStatus } from "./lib/contracts/check.ts";
export type { ContractKind } from "./lib/contracts/items/mod.ts";
export {
  contractReport,
  type Report,
  type ReportOutcome,
  type ReportRun,
} from "./lib/contracts/report.ts";
export type { RunOutcome } from "./lib/contracts/records.ts";
export {
  checkSkillRedirect,
  type RedirectDecision,
  redirectMessage,
  type RedirectPassReason,
  type RedirectSources,
} from "./lib/redirect/redirect.ts";
export { type HookEvent, type HostKind, parsePayload } from "./lib/host/payload.ts";
export type { HostFolders, HostLayout } from "./lib/host/mod.ts";
