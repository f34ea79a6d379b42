import assert from "node:assert/strict";
import { MAX_CONTRACT_ITEMS, validateContract } from "./schema.ts";

const WORKED = {
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
};

async function error(raw: unknown): Promise<string> {
  const v = await validateContract(raw);
  assert.equal(v.ok, false, "expected an invalid contract");
  return (v as { error: string }).error;
}

Deno.test("validateContract() accepts the seed's worked example", async () => {
  const v = await validateContract(WORKED);
  assert.ok(v.ok);
  assert.deepEqual(v.contract.items.map((i) => i.id), ["debug-report", "repro-after-fix"]);
  assert.deepEqual(v.warnings, []);
});

Deno.test("validateContract() accepts every kind with its optional fields", async () => {
  const v = await validateContract({
    version: 1,
    items: [
      { id: "a.b_c-1", kind: "check_after_last_edit", match: "bun test", fix: "f", summary: "s" },
      { id: "sp", kind: "selected_specialists_dispatched", marker: "Running N checks:" },
      { id: "sp2", kind: "selected_specialists_dispatched", empty_marker: "none needed" },
      { id: "ag", kind: "agent_dispatch", match: "security review" },
    ],
  });
  assert.ok(v.ok);
  assert.equal(v.contract.items[0].fix, "f");
});

Deno.test("validateContract() rejects an unsupported version", async () => {
  assert.match(await error({ ...WORKED, version: 2 }), /unsupported contract version 2/);
  assert.match(await error({ items: WORKED.items }), /no version/);
});

Deno.test("validateContract() rejects an unknown kind, naming it", async () => {
  assert.match(
    await error({ version: 1, items: [{ id: "x", kind: "magic" }] }),
    /unknown kind "magic"/,
  );
});

Deno.test("validateContract() rejects a bad id", async () => {
  assert.match(
    await error({ version: 1, items: [{ id: "Debug Report", kind: "check_after_last_edit" }] }),
    /id must be lowercase/,
  );
  assert.match(await error({ version: 1, items: [{ kind: "check_after_last_edit" }] }), /id must/);
});

Deno.test("validateContract() rejects more than 20 items and duplicate ids", async () => {
  const many = Array.from({ length: MAX_CONTRACT_ITEMS + 1 }, (_, i) => ({
    id: `i${i}`,
    kind: "check_after_last_edit",
  }));
  assert.match(await error({ version: 1, items: many }), /at most 20/);
  assert.ok((await validateContract({ version: 1, items: many.slice(0, 20) })).ok);
  assert.match(
    await error({ version: 1, items: [WORKED.items[1], WORKED.items[1]] }),
    /duplicate item id/,
  );
});

Deno.test("validateContract() rejects a block that is not a mapping or has no items", async () => {
  assert.match(await error("yes"), /not a mapping/);
  assert.match(await error([1]), /not a mapping/);
  assert.match(await error({ version: 1, items: [] }), /non-empty list/);
  assert.match(await error({ version: 1, items: ["x"] }), /item 1 is not a mapping/);
});

Deno.test("validateContract() compiles match with RE2 and rejects what RE2 cannot run", async () => {
  const v = await validateContract({
    version: 1,
    items: [
      { id: "c", kind: "check_after_last_edit", match: "run-e2e" },
      { id: "a", kind: "agent_dispatch", match: "security\\s+review" },
    ],
  });
  assert.ok(v.ok);
  const [c, a] = v.contract.items;
  assert.ok(c.kind === "check_after_last_edit" && c.matcher?.engine === "re2js");
  assert.equal(c.matcher?.ignoreCase, false);
  assert.ok(a.kind === "agent_dispatch" && a.matcher.engine === "re2js" && a.matcher.ignoreCase);
  for (const match of ["(?=x)y", "(?!x)y", "(?<=x)y", "(a)\\1", "(?<n>a)\\k<n>"]) {
    for (const kind of ["agent_dispatch", "check_after_last_edit"]) {
      assert.match(
        await error({ version: 1, items: [{ id: "p", kind, match }] }),
        /^item "p": match is not a valid RE2 regular expression \(/,
        `${kind} ${match}`,
      );
    }
  }
  assert.match(
    await error({ version: 1, items: [{ id: "p", kind: "agent_dispatch", match: "(?=x)y" }] }),
    /lookaround and back-references are not supported/,
  );
  assert.match(
    await error({
      version: 1,
      items: [{ id: "p", kind: "agent_dispatch", match: "x{0,999}y{0,999}" }],
    }),
    /^item "p": match is too complex \(\d+ RE2 instructions, at most 2000\)$/,
  );
});

Deno.test("validateContract() warns about unknown fields without failing", async () => {
  const v = await validateContract({
    version: 1,
    extra: 1,
    items: [{ id: "c", kind: "check_after_last_edit", colour: "red" }],
  });
  assert.ok(v.ok);
  assert.equal(v.warnings.length, 2);
});

Deno.test("validateContract() checks an item's fix and summary", async () => {
  assert.match(
    await error({ version: 1, items: [{ id: "c", kind: "check_after_last_edit", fix: 3 }] }),
    /fix must be a non-empty string/,
  );
});

Deno.test("validateContract() reports every problem of a contract in one pass", async () => {
  const v = await validateContract({
    version: 1,
    items: [
      { id: "Bad Id", kind: "report_labels", heading: "H", labels: ["A"] },
      { id: "two", kind: "no_such_kind" },
      { id: "three", kind: "agent_dispatch", match: "(?=x)" },
      { id: "three", kind: "check_after_last_edit", fix: "" },
    ],
  });
  assert.equal(v.ok, false);
  if (v.ok) return;
  assert.equal(v.errors.length, 5, v.errors.join("\n"));
  assert.match(v.errors[0], /^item 1: id must be/);
  assert.match(v.errors[1], /^item "two": unknown kind "no_such_kind"/);
  assert.match(v.errors[2], /^item "three": match is not a valid RE2/);
  assert.match(v.errors[3], /^item "three": fix must be a non-empty string/);
  assert.match(v.errors[4], /^duplicate item id "three"/);
  assert.equal(v.error, v.errors[0]);
});
