import assert from "node:assert/strict";
import {
  checkContract,
  type CheckOptions,
  findEarlyEnd,
  findWaivers,
  isPlaceholderValue,
  parseSelection,
  parseWaiveCommand,
  renderBlockLine,
  waiveCommandPrefix,
} from "./check.ts";
import { type Contract, validateContract } from "./schema.ts";
import type { TranscriptRun } from "../transcript/model.ts";
import { parseTranscriptText } from "../transcript/read.ts";
import {
  bash,
  call,
  edit,
  jsonl,
  type Rec,
  result,
  say,
  SESSION,
  skillLoad,
} from "../../fixtures/transcripts/_build.ts";

const FIX = new URL("../../fixtures/transcripts/", import.meta.url);

async function contract(raw: unknown): Promise<Contract> {
  const v = await validateContract(raw);
  if (!v.ok) throw new Error(v.error);
  return v.contract;
}

const INVESTIGATE = await contract({
  version: 1,
  items: [
    {
      id: "debug-report",
      kind: "report_labels",
      heading: "DEBUG REPORT",
      labels: ["Symptom", "Root cause", "Fix", "Evidence"],
    },
    { id: "repro-after-fix", kind: "check_after_last_edit" },
  ],
});
const REVIEW = await contract({
  version: 1,
  items: [{ id: "specialists", kind: "selected_specialists_dispatched" }],
});

function runOf(records: Rec[] | string, skill = "investigate"): TranscriptRun {
  const text = typeof records === "string" ? records : jsonl(records);
  const read = parseTranscriptText(text, { skill });
  if (read.kind !== "ok") throw new Error(`no run: ${read.kind}`);
  return read.run;
}

function check(records: Rec[], c = INVESTIGATE, opts: Partial<CheckOptions> = {}) {
  const skill = opts.skill ?? (c === REVIEW ? "review" : "investigate");
  return checkContract(runOf(records, skill), c, { skill, ...opts });
}

function statuses(r: ReturnType<typeof check>): Record<string, string> {
  return Object.fromEntries(r.items.map((i) => [i.id, i.status]));
}

/** What `skillgate contract waive repro-after-fix` prints (the checker requires it). */
const ACK =
  "Waived repro-after-fix for investigate: x. This waiver counts for this session's current run only.";

const REPORT = "DEBUG REPORT\nSymptom: login crashed on a null user\nRoot cause: " +
  "session.user was null\nFix: optional chaining in currentUser\nEvidence: bun test: 2 pass\nStatus: DONE";

const SEED_BLOCK =
  `SKILL_CONTRACT_UNMET investigate (contract v1): missing debug-report, repro-after-fix. Fix: debug-report: print the DEBUG REPORT with real values for Symptom, Root cause, Fix, Evidence; repro-after-fix: run the test or repro again after your last edit and show its result. If an item truly does not apply, run 'skillgate' contract waive <item> --reason "<why>" (this session only; counted as a miss for follow). This blocks once.`;

Deno.test("checkContract() reproduces the seed's worked example block line", async () => {
  const text = await Deno.readTextFile(new URL("investigate_unmet.jsonl", FIX));
  const r = checkContract(runOf(text), INVESTIGATE, { skill: "investigate" });
  assert.equal(r.outcome, "unmet");
  assert.equal(renderBlockLine(r), SEED_BLOCK);
});

Deno.test("checkContract() is met after bun test and a DEBUG REPORT", async () => {
  const text = await Deno.readTextFile(new URL("investigate_met.jsonl", FIX));
  const r = checkContract(runOf(text), INVESTIGATE, { skill: "investigate" });
  assert.equal(r.outcome, "met");
  assert.deepEqual(statuses(r), { "debug-report": "met", "repro-after-fix": "met" });
});

Deno.test("renderBlockLine() names the installed skillgate command", async () => {
  const text = await Deno.readTextFile(new URL("investigate_unmet.jsonl", FIX));
  const r = checkContract(runOf(text), INVESTIGATE, { skill: "investigate" });
  assert.ok(
    renderBlockLine(r, { command: "/opt/sg/bin/skillgate" }).includes(
      `run '/opt/sg/bin/skillgate' contract waive <item> --reason "<why>"`,
    ),
  );
  assert.equal(
    waiveCommandPrefix("deno run -A /abs/cli.ts"),
    "deno run -A /abs/cli.ts contract",
  );
  assert.equal(waiveCommandPrefix(), "'skillgate' contract");
});

Deno.test("checkContract() reads the final text override (last_assistant_message)", () => {
  const recs = [...skillLoad("s", "investigate"), ...edit("e1"), ...bash("b1", "bun test")];
  assert.equal(statuses(check(recs))["debug-report"], "missing");
  assert.equal(statuses(check(recs, INVESTIGATE, { finalText: REPORT }))["debug-report"], "met");
});

Deno.test("report_labels rejects empty values and placeholders", () => {
  for (
    const value of [
      "",
      "[what failed]",
      "<symptom>",
      "TBD",
      "TODO: fill in",
      "...",
      "…",
      "DONE | BLOCKED",
    ]
  ) {
    assert.ok(isPlaceholderValue(value), `placeholder ${JSON.stringify(value)}`);
  }
  for (const value of ["null user id", "session.user was null (see auth.ts:2)", "a | b c"]) {
    assert.ok(!isPlaceholderValue(value), `real ${JSON.stringify(value)}`);
  }
  const withPlaceholder = REPORT.replace("Root cause: session.user was null", "Root cause: <why>");
  const r = check([...skillLoad("s", "investigate"), say(withPlaceholder)]);
  assert.equal(statuses(r)["debug-report"], "missing");
  assert.match(r.items[0].detail, /Root cause/);
});

Deno.test("report_labels uses the last message with the heading and accepts markdown labels", () => {
  const md = "## DEBUG REPORT\n- **Symptom:** crash\n- **Root cause**: null user\n" +
    "- Fix: guard\n- Evidence: `bun test` passes";
  assert.equal(statuses(check([...skillLoad("s", "investigate"), say(md)]))["debug-report"], "met");
  const later = check([
    ...skillLoad("s", "investigate"),
    say(REPORT),
    say("DEBUG REPORT\nSymptom: [...]\nRoot cause: [...]\nFix: [...]\nEvidence: [...]"),
  ]);
  assert.equal(statuses(later)["debug-report"], "missing");
  const missingLabel = check([
    ...skillLoad("s", "investigate"),
    say(REPORT.replace(/Evidence.*\n/, "")),
  ]);
  assert.equal(statuses(missingLabel)["debug-report"], "missing");
});

Deno.test("report_labels accepts a report whose heading is mentioned again after it", () => {
  const mentioned = check([
    ...skillLoad("s", "investigate"),
    say(`${REPORT}\n\nI kept the debug report short; the full log is in /tmp/log.txt.`),
  ]);
  assert.equal(statuses(mentioned)["debug-report"], "met");
  // A mention without any report around it is still missing.
  const onlyMention = check([
    ...skillLoad("s", "investigate"),
    say("The debug report follows later."),
  ]);
  assert.equal(statuses(onlyMention)["debug-report"], "missing");
});

Deno.test("check_after_last_edit is met with no edit, missing with a test only before the edit", () => {
  assert.equal(
    statuses(check([...skillLoad("s", "investigate"), say("x")]))["repro-after-fix"],
    "met",
  );
  const before = check([
    ...skillLoad("s", "investigate"),
    ...bash("b1", "npm test"),
    ...edit("e1"),
    say("x"),
  ]);
  assert.equal(statuses(before)["repro-after-fix"], "missing");
  const after = check([
    ...skillLoad("s", "investigate"),
    ...edit("e1"),
    ...bash("b1", "npm test", "Exit code 1\n1 failing", true),
    say("x"),
  ]);
  assert.equal(statuses(after)["repro-after-fix"], "met", "a failing test run still ran");
});

Deno.test("check_after_last_edit counts Write, MultiEdit and NotebookEdit as edits", () => {
  for (const name of ["Write", "MultiEdit", "NotebookEdit"]) {
    const r = check([
      ...skillLoad("s", "investigate"),
      ...bash("b1", "pytest"),
      ...edit("e1", "/a/b.py", name),
      say("x"),
    ]);
    assert.equal(statuses(r)["repro-after-fix"], "missing", name);
  }
});

Deno.test("check_after_last_edit ignores a command that did not run and non-test commands", () => {
  const denied = check([
    ...skillLoad("s", "investigate"),
    ...edit("e1"),
    call("b1", "Bash", { command: "npm test" }),
    result("b1", "<tool_use_error>Permission denied</tool_use_error>", { error: true }),
    ...bash("b2", "cat test/a.test.ts"),
    ...bash("b3", "npm install"),
    say("x"),
  ]);
  assert.equal(statuses(denied)["repro-after-fix"], "missing");
});

Deno.test("check_after_last_edit uses the item's match instead of the classifier", async () => {
  const c = await contract({
    version: 1,
    items: [{ id: "e2e", kind: "check_after_last_edit", match: "run-e2e" }],
  });
  const recs = [...skillLoad("s", "investigate"), ...edit("e1"), ...bash("b1", "npm test")];
  assert.equal(check(recs, c).outcome, "unmet");
  assert.equal(check([...recs, ...bash("b2", "./bin/run-e2e")], c).outcome, "met");
});

Deno.test("an early end counts as met: STATUS: BLOCKED or Nothing to review", () => {
  const recs = [...skillLoad("s", "investigate"), ...edit("e1")];
  const blocked = check([...recs, say("I cannot reproduce it.\nSTATUS: BLOCKED")]);
  assert.equal(blocked.outcome, "met");
  assert.equal(blocked.earlyEnd, "blocked");
  assert.equal(check([...recs, say("DEBUG REPORT\nStatus: BLOCKED")]).outcome, "met");
  const review = check(
    [...skillLoad("s", "review"), say("Nothing to review: the diff is empty.")],
    REVIEW,
  );
  assert.equal(review.earlyEnd, "nothing_to_review");
  assert.equal(review.outcome, "met");
  assert.equal(findEarlyEnd("STATUS: BLOCKED\nlater\nSTATUS: DONE"), undefined);
});

Deno.test("selected_specialists_dispatched is met when each named specialist has an Agent dispatch", () => {
  const recs = [
    ...skillLoad("s", "review"),
    say("Dispatching 2 specialists: Testing, Maintainability"),
    call("a1", "Agent", { description: "Testing specialist review", prompt: "p" }),
    call("a2", "Task", { description: "review", prompt: "You are the Maintainability specialist" }),
  ];
  assert.equal(check(recs, REVIEW).outcome, "met");
  const missing = check(recs.slice(0, -1), REVIEW);
  assert.equal(missing.outcome, "unmet");
  assert.match(missing.items[0].detail, /Maintainability/);
});

Deno.test("selected_specialists_dispatched passes for zero specialists and 'specialists skipped'", () => {
  const zero = [...skillLoad("s", "review"), say("Dispatching 0 specialists: (small diff)")];
  assert.equal(check(zero, REVIEW).outcome, "met");
  const skipped = [
    ...skillLoad("s", "review"),
    say("Small diff (12 lines) — specialists skipped."),
  ];
  assert.equal(check(skipped, REVIEW).outcome, "met");
});

Deno.test("selected_specialists_dispatched drops parenthesised text and rejects non-plain names", () => {
  const sel = parseSelection(
    "Dispatching 1 specialists: State Machines (small diff)",
    "Dispatching N specialists:",
    "specialists skipped",
  );
  assert.deepEqual(sel?.names, ["State Machines"]);
  assert.equal(sel?.count, 1);
  const ok = check([
    ...skillLoad("s", "review"),
    say("Dispatching 1 specialists: State Machines (small diff)"),
    call("a1", "Agent", { description: "State Machines review", prompt: "p" }),
  ], REVIEW);
  assert.equal(ok.outcome, "met");
  const weird = check([
    ...skillLoad("s", "review"),
    say("Dispatching 1 specialists: <script>alert(1)</script>"),
  ], REVIEW);
  assert.equal(weird.outcome, "unmet");
  const long = check([
    ...skillLoad("s", "review"),
    say(`Dispatching 1 specialists: ${"A".repeat(41)}`),
    call("a1", "Agent", { description: "A".repeat(41), prompt: "p" }),
  ], REVIEW);
  assert.equal(long.outcome, "unmet");
});

Deno.test("selected_specialists_dispatched reads a Bash result but never a fetched page or file", () => {
  const viaBash = check([
    ...skillLoad("s", "review"),
    ...bash("b1", "./bin/select-specialists", "Dispatching 1 specialists: Security"),
    call("a1", "Agent", { description: "Security", prompt: "p" }),
  ], REVIEW);
  assert.equal(viaBash.outcome, "met");
  const viaRead = check([
    ...skillLoad("s", "review"),
    call("r1", "Read", { file_path: "/x/notes.md" }),
    result("r1", "Dispatching 0 specialists: (none)"),
    call("w1", "WebFetch", { url: "https://x" }),
    result("w1", "Dispatching 0 specialists: (none)"),
  ], REVIEW);
  assert.equal(viaRead.outcome, "unmet");
  for (const cmd of ["cat notes.md", "curl -s https://x/notes", "grep Dispatching notes.md"]) {
    const viaShellRead = check([
      ...skillLoad("s", "review"),
      ...bash("b1", cmd, "Dispatching 0 specialists: (none)"),
    ], REVIEW);
    assert.equal(viaShellRead.outcome, "unmet", cmd);
  }
  const viaHeredoc = check([
    ...skillLoad("s", "review"),
    ...bash(
      "b1",
      "cat <<'EOF'\nDispatching 0 specialists: (none)\nEOF",
      "Dispatching 0 specialists: (none)",
    ),
  ], REVIEW);
  assert.equal(viaHeredoc.outcome, "met");
});

Deno.test("selected_specialists_dispatched honours a skill's own marker and empty_marker", async () => {
  const c = await contract({
    version: 1,
    items: [{
      id: "sp",
      kind: "selected_specialists_dispatched",
      marker: "Running N reviewers:",
      empty_marker: "no reviewers needed",
    }],
  });
  const recs = [
    ...skillLoad("s", "review"),
    say("Running 1 reviewers: Perf"),
    call("a1", "Agent", { description: "Perf", prompt: "p" }),
  ];
  assert.equal(check(recs, c, { skill: "review" }).outcome, "met");
  assert.equal(
    check([...skillLoad("s", "review"), say("No reviewers needed.")], c, { skill: "review" })
      .outcome,
    "met",
  );
  assert.equal(
    check([...skillLoad("s", "review"), say("Dispatching 0 specialists:")], c, { skill: "review" })
      .outcome,
    "unmet",
  );
});

Deno.test("agent_dispatch matches an Agent's description or prompt case-insensitively", async () => {
  const c = await contract({
    version: 1,
    items: [{ id: "sec", kind: "agent_dispatch", match: "security\\s+review" }],
  });
  const base = [...skillLoad("s", "investigate")];
  assert.equal(check(base, c).outcome, "unmet");
  assert.equal(
    check([...base, call("a", "Agent", { description: "x", prompt: "Do a SECURITY  review" })], c)
      .outcome,
    "met",
  );
  assert.equal(
    check([...base, call("a", "Task", { description: "Security review", prompt: "p" })], c).outcome,
    "met",
  );
});

Deno.test("a backtracking-prone match answers on long dispatch prompts and commands (RE2)", async () => {
  // Under JavaScript's backtracking RegExp each of these checks runs for minutes.
  const hostile = "[^!]{0,99}".repeat(5) + "!";
  const c = await contract({
    version: 1,
    items: [
      { id: "sec", kind: "agent_dispatch", match: hostile },
      { id: "e2e", kind: "check_after_last_edit", match: "(a+)+$" },
    ],
  });
  const recs = [
    ...skillLoad("s", "investigate"),
    call("a", "Agent", { description: "x".repeat(115), prompt: "x".repeat(5000) }),
    ...edit("e1"),
    ...bash("b1", "a".repeat(5000) + "!"),
  ];
  assert.deepEqual(statuses(check(recs, c)), { sec: "missing", e2e: "missing" });
  const met = [
    ...recs,
    call("a2", "Agent", { description: "go!", prompt: "p" }),
    ...bash("b2", "aaa"),
  ];
  assert.deepEqual(statuses(check(met, c)), { sec: "met", e2e: "met" });
});

Deno.test("checkContract() refuses a hand-built contract whose match was never compiled", () => {
  const c = { version: 1, items: [{ id: "e2e", kind: "check_after_last_edit", match: "x" }] };
  assert.throws(
    () => check([...skillLoad("s", "investigate"), ...edit("e1")], c as Contract),
    /^TypeError: Contract item e2e has a match but no matcher: validate the contract/,
  );
});

Deno.test("a successful waive call waives an item; the run is met but marked waived", () => {
  const recs = [
    ...skillLoad("s", "investigate"),
    ...edit("e1"),
    ...bash(
      "w1",
      `skillgate contract waive repro-after-fix --reason "docs-only change"`,
      ACK,
    ),
    say(REPORT),
  ];
  const r = check(recs);
  assert.equal(r.outcome, "met");
  assert.equal(r.waived, true);
  assert.equal(r.items[1].status, "waived");
  assert.equal(r.items[1].waiverReason, "docs-only change");
});

Deno.test("waiving debug-report is no test run: repro-after-fix stays missing, in every command form", () => {
  const ack = "Waived debug-report for investigate: docs change. This waiver counts for this " +
    "session's current run only.";
  const waive = `contract waive debug-report --reason "docs change"`;
  const forms: Array<[string, string | undefined]> = [
    ["skillgate", undefined],
    [
      "'/usr/local/bin/deno' run --allow-read --allow-write --allow-env --allow-run '/home/u/skillgate/cli.ts'",
      undefined,
    ],
    [
      "/usr/bin/deno run --allow-read --allow-write --allow-env --allow-run jsr:@skillgate/skillgate@0.1.0/cli",
      undefined,
    ],
    ["deno run -A '/home/u/.claude/plugins/cache/m/skillgate/0.1.0/cli.ts'", undefined],
    ["/opt/tools/skillgate-check", "/opt/tools/skillgate-check"],
  ];
  for (const [prefix, command] of forms) {
    const recs = [
      ...skillLoad("s", "investigate"),
      ...edit("e1"),
      ...bash("w1", `${prefix} ${waive}`, ack),
      say("Done: the docs are updated."),
    ];
    const r = check(recs, INVESTIGATE, command === undefined ? {} : { command });
    assert.equal(statuses(r)["repro-after-fix"], "missing", prefix);
    assert.equal(r.outcome, "unmet", prefix);
  }
});

Deno.test("a waive that failed, has no reason, or names another skill does not count", () => {
  const base = [...skillLoad("s", "investigate"), ...edit("e1"), say(REPORT)];
  const cases: Rec[][] = [
    bash("w1", `skillgate contract waive repro-after-fix --reason "x"`, "Exit code 2", true),
    bash("w2", `skillgate contract waive repro-after-fix`, ACK),
    bash("w3", `skillgate contract waive repro-after-fix --reason ""`, ACK),
    bash("w4", `skillgate contract waive repro-after-fix --reason "x" --skill review`, ACK),
    bash("w5", `echo contract waive repro-after-fix --reason "x"`, ACK),
    // Found in review: an echo of the whole line, and a failure hidden behind `|| true`.
    bash("w7", `echo skillgate contract waive repro-after-fix --reason "x"`),
    bash(
      "w8",
      `skillgate contract waive repro-after-fix --reason "x" || true`,
      "bash: skillgate: command not found",
    ),
  ];
  for (const w of cases) {
    assert.equal(check([...base, ...w]).outcome, "unmet", JSON.stringify(w[0]));
  }
  const sameSkill = bash(
    "w6",
    `skillgate contract waive repro-after-fix --reason "x" --skill investigate`,
    ACK,
  );
  assert.equal(check([...base, ...sameSkill]).outcome, "met");
});

Deno.test("a waive from another session does not count when a session id is given", () => {
  const other = [
    call("w1", "Bash", { command: `skillgate contract waive repro-after-fix --reason "x"` }),
    result("w1", ACK, { session: "other" }),
  ];
  (other[0] as Rec).sessionId = "other-session";
  const recs = [...skillLoad("s", "investigate"), ...edit("e1"), ...other, say(REPORT)];
  assert.equal(check(recs, INVESTIGATE, { sessionId: SESSION }).outcome, "unmet");
  assert.equal(check(recs).outcome, "met");
});

Deno.test("parseWaiveCommand() reads the installed command forms", () => {
  assert.deepEqual(parseWaiveCommand(`'skillgate' contract waive a --reason "why"`), {
    item: "a",
    reason: "why",
  });
  assert.deepEqual(
    parseWaiveCommand(`deno run -A /x/cli.ts contract waive a --reason=why --skill investigate`),
    { item: "a", reason: "why", skill: "investigate" },
  );
  assert.equal(parseWaiveCommand(`sg contract waive a --reason why`), undefined);
  assert.deepEqual(parseWaiveCommand(`sg contract waive a --reason why`, "/usr/bin/sg")?.item, "a");
  const run = runOf([
    ...skillLoad("s", "investigate"),
    ...bash("w", "skillgate contract waive a --reason b", "Waived a for investigate: b."),
  ]);
  assert.equal(findWaivers(run, { skill: "investigate" }).length, 1);
});
