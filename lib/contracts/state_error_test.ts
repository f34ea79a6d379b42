import assert from "node:assert/strict";
import { errorCause, formatContractFailure, stateErrorLine } from "./state_error.ts";
import { ContractStateError } from "./stop.ts";
import { HookFailure } from "../hook/runner.ts";

Deno.test("stateErrorLine() is the one documented stderr line", () => {
  assert.equal(
    stateErrorLine("/s/skill-contracts/x.json", "Corrupt record (not valid JSON)"),
    "skillgate: SKILL_CONTRACT_STATE_ERROR /s/skill-contracts/x.json: Corrupt record (not valid JSON); stop allowed, miss not recorded (see README#state-error)",
  );
});

Deno.test("formatContractFailure() turns state errors, the deadline and an unreadable config into the state-error line", () => {
  const e = new ContractStateError("/t.jsonl", "No such file");
  assert.equal(
    formatContractFailure(e),
    "skillgate: SKILL_CONTRACT_STATE_ERROR /t.jsonl: No such file; stop allowed, miss not recorded (see README#state-error)",
  );
  assert.match(
    formatContractFailure(new HookFailure("DEADLINE", "hook ran past its 5000 ms deadline")),
    /^skillgate: SKILL_CONTRACT_STATE_ERROR .*: hook ran past its 5000 ms deadline; stop allowed, miss not recorded \(see README#state-error\)$/,
  );
  assert.equal(
    formatContractFailure(
      new HookFailure("CONFIG_UNREADABLE", "/s/config.yaml: Is a directory; hook off"),
    ),
    "skillgate: SKILL_CONTRACT_STATE_ERROR /s/config.yaml: Is a directory; stop allowed, miss not recorded (see README#state-error)",
  );
  assert.equal(
    formatContractFailure(new HookFailure("PERMISSION", "missing --allow-read=/x")),
    "skillgate: PERMISSION missing --allow-read=/x",
  );
});

Deno.test("formatContractFailure() names the path the hook was working on for the deadline and an unexpected error", () => {
  for (const code of ["DEADLINE", "ERROR"]) {
    assert.equal(
      formatContractFailure(new HookFailure(code, "it failed"), "/s/skill-contracts/x.json"),
      "skillgate: SKILL_CONTRACT_STATE_ERROR /s/skill-contracts/x.json: it failed; stop allowed, miss not recorded (see README#state-error)",
    );
    assert.match(
      formatContractFailure(new HookFailure(code, "it failed")),
      /^skillgate: SKILL_CONTRACT_STATE_ERROR <state root>: it failed;/,
    );
  }
});

Deno.test("errorCause() gives the OS's words for common file errors, else the message's first line", () => {
  assert.equal(errorCause(new Deno.errors.NotFound("x")), "No such file or directory");
  assert.equal(errorCause(new Deno.errors.PermissionDenied("x")), "Permission denied");
  assert.equal(errorCause(new Error("first\nsecond")), "first");
  assert.equal(errorCause("x".repeat(300)).length, 200);
});
