/**
 * `skillgate contract lint`'s check of one SKILL.md, for skill authors: every problem of the file
 * in one run. The frontmatter is read the way the catalog (and so the Stop hook) reads it
 * (`parseFrontmatter`: strict YAML, else each top-level key on its own), so lint and the hook
 * agree: a key that is not strict YAML is a warning with its line (read as text, as Claude Code
 * reads it) and an error when it is the `contract:` block itself.
 *
 * @module
 */

import { parseFrontmatter, splitFrontmatter } from "../catalog/frontmatter.ts";
import { type Contract, validateContract } from "./schema.ts";

/** One problem of a file. */
export interface LintProblem {
  /** An error makes the file fail; a warning does not. */
  readonly severity: "error" | "warning";
  /** The file's line (1-based), when known. */
  readonly line?: number;
  /** What is wrong, naming the item and the field. */
  readonly message: string;
}

/** The verdict on one SKILL.md. */
export interface LintResult {
  /** `ok`: a valid contract; `no-contract`: valid frontmatter without one; `invalid`: an error. */
  readonly status: "ok" | "no-contract" | "invalid";
  /** The contract, when valid. */
  readonly contract?: Contract;
  /** Every problem, errors and warnings, in the file's order where lines are known. */
  readonly problems: readonly LintProblem[];
}

/**
 * Lints one SKILL.md's text.
 *
 * @param text The file's text.
 * @returns The verdict and every problem.
 */
export async function lintSkillText(text: string): Promise<LintResult> {
  if (splitFrontmatter(text).yaml === undefined) {
    return {
      status: "invalid",
      problems: [{
        severity: "error",
        line: 1,
        message: "No frontmatter: a SKILL.md starts with a --- line, its YAML, then ---",
      }],
    };
  }
  const fm = await parseFrontmatter(text);
  const problems: LintProblem[] = [];
  if (fm.yamlUnavailable) {
    problems.push({ severity: "error", message: fm.warnings[0] ?? "YAML parser unavailable" });
    return { status: "invalid", problems };
  }
  if (fm.warnings.includes("Frontmatter is not a mapping")) {
    problems.push({ severity: "error", line: 2, message: "Frontmatter is not a mapping of keys" });
    return { status: "invalid", problems };
  }
  for (const e of fm.yamlErrors ?? []) {
    const what = e.key === undefined ? "Frontmatter" : e.key;
    problems.push(
      e.key === "contract"
        ? { severity: "error", line: e.line, message: `contract is not valid YAML: ${e.message}` }
        : {
          severity: "warning",
          line: e.line,
          message: `${what} is not valid YAML (${e.message}); read as plain text`,
        },
    );
  }
  if (fm.yamlErrors?.some((e) => e.key === "contract")) return { status: "invalid", problems };
  const raw = fm.data.contract;
  if (raw === undefined || raw === null) {
    const failed = problems.some((p) => p.severity === "error");
    return { status: failed ? "invalid" : "no-contract", problems };
  }
  const v = await validateContract(raw);
  for (const w of v.warnings) problems.push({ severity: "warning", message: w });
  if (!v.ok || problems.some((p) => p.severity === "error")) {
    if (!v.ok) { for (const e of v.errors) problems.push({ severity: "error", message: e }); }
    return { status: "invalid", problems };
  }
  return { status: "ok", contract: v.contract, problems };
}

/**
 * The item a schema message is about (`item 2: …`, `item "id": …`, `duplicate item id "id"`).
 * Messages come in item order, so an id is looked for from the item of the message before
 * (`from`): of two items with one id, the later message is about the later item.
 */
function itemIndexOf(message: string, items: unknown, from: number): number | undefined {
  const byPosition = /^item (\d+)\b/.exec(message);
  if (byPosition) return Number(byPosition[1]) - 1;
  const byId = /^(?:item|duplicate item id) ("(?:[^"\\]|\\.)*")/.exec(message);
  if (!byId || !Array.isArray(items)) return undefined;
  let id: unknown;
  try {
    id = JSON.parse(byId[1]);
  } catch {
    return undefined;
  }
  const ids = items.map((i) => i && typeof i === "object" ? (i as { id?: unknown }).id : undefined);
  const next = ids.indexOf(id, from);
  return next >= 0 ? next : ids.indexOf(id) >= 0 ? ids.indexOf(id) : undefined;
}

/**
 * Lints an overlay file's text (`skills.yaml`): its shape (`parseOverlayText`) and each entry's
 * contract against the schema, every problem with its line (a contract item's problems at the
 * item's line, when it is written one item a line).
 *
 * @param text The file's text.
 * @returns `ok` (or `no-contract` when no entry has one) or `invalid`, and every problem.
 */
export async function lintOverlayText(text: string): Promise<LintResult> {
  const { parseOverlayText, overlayLines } = await import("../catalog/overlays.ts");
  const parsed = await parseOverlayText(text);
  const problems: LintProblem[] = [...parsed.problems];
  const at = overlayLines(text);
  let contracts = 0;
  for (const [name, entry] of Object.entries(parsed.entries)) {
    if (entry.contract === undefined) continue;
    contracts++;
    const v = await validateContract(entry.contract);
    const items = (entry.contract as { items?: unknown } | null)?.items;
    let from = 0;
    const lineOf = (message: string) => {
      const i = itemIndexOf(message, items, from);
      if (i !== undefined) from = i;
      const lines = at.items.get(name) ?? [];
      return (i !== undefined ? lines[Math.min(i, lines.length - 1)] : undefined) ??
        entry.lines.contract ?? entry.lines.entry;
    };
    const add = (severity: LintProblem["severity"], message: string) =>
      problems.push({ severity, line: lineOf(message), message: `${name}: ${message}` });
    for (const w of v.warnings) add("warning", w);
    from = 0; // the errors, in item order again
    if (!v.ok) { for (const e of v.errors) add("error", e); }
  }
  problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  const failed = problems.some((p) => p.severity === "error");
  return { status: failed ? "invalid" : contracts ? "ok" : "no-contract", problems };
}
