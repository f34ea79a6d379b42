/**
 * The `agent_dispatch` item kind: an Agent (or Task) dispatch's description or prompt matches the
 * item's `match`, a case-insensitive RE2 regular expression.
 *
 * @module
 */

import type { UserRegex } from "../../base/user_regex.ts";
import {
  agentCalls,
  type CheckInput,
  compilePattern,
  type ItemBase,
  type ItemKind,
  matcherOf,
  optionalString,
  type ValidationScope,
  type Verdict,
} from "./kind.ts";

/** `agent_dispatch`: an Agent dispatch's description or prompt matches `match`. */
export interface AgentDispatchItem extends ItemBase {
  /** The kind. */
  kind: "agent_dispatch";
  /** A case-insensitive regular expression (RE2 syntax). */
  match: string;
  /** `match`, compiled by `validateContract`. */
  matcher: UserRegex;
}

function validate(
  raw: Readonly<Record<string, unknown>>,
  base: ItemBase,
  scope: ValidationScope,
): AgentDispatchItem | Error {
  const match = optionalString(raw, "match", scope.where);
  if (match instanceof Error) return match;
  if (match === undefined) return new Error(`${scope.where}: agent_dispatch needs match`);
  const matcher = compilePattern(match, "match", true, scope);
  if (matcher instanceof Error) return matcher;
  return { ...base, kind: "agent_dispatch", match, matcher };
}

function check(item: AgentDispatchItem, { run }: CheckInput): Verdict {
  const re = matcherOf(item)!;
  const hit = agentCalls(run).some((c) =>
    ["description", "prompt"].some((k) => {
      const v = c.input[k];
      return typeof v === "string" && re.test(v);
    })
  );
  return hit
    ? { met: true, detail: "an Agent dispatch matches" }
    : { met: false, detail: "no Agent dispatch matches" };
}

/** The `agent_dispatch` kind. */
export const agentDispatch: ItemKind<AgentDispatchItem> = {
  kind: "agent_dispatch",
  keys: ["match"],
  refusedKeys: {
    marker:
      "agent_dispatch does not accept a marker (the checker cannot bind a marker to the dispatch it names); use match",
  },
  validate,
  check,
  fix: () => "dispatch the agent this skill requires",
};
