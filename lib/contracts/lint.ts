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
