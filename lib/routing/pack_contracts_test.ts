import assert from "node:assert/strict";
import {
  CONTRACT_PACK_NAMES,
  PACK_CONTRACTS,
  packContractFor,
  withPackContracts,
} from "./pack_contracts.ts";
import { PACK_ENTRIES } from "./packs.ts";
import { validateContract } from "../contracts/schema.ts";

Deno.test("every pack contract belongs to a reviewed pack skill, with its entry's opening words", () => {
  for (const c of PACK_CONTRACTS) {
    const entry = PACK_ENTRIES.find((e) => e[0] === c.pack && e[1] === c.name);
    assert.ok(entry, `${c.pack}/${c.name}`);
    assert.equal(c.opening, entry[2], `${c.pack}/${c.name}`);
  }
  assert.deepEqual(CONTRACT_PACK_NAMES, ["superpowers"]);
});

Deno.test("every pack contract is a valid contract, without warnings", async () => {
  assert.equal(PACK_CONTRACTS.length, 6);
  for (const c of PACK_CONTRACTS) {
    const v = await validateContract(c.contract);
    assert.ok(v.ok, `${c.name}: ${v.ok ? "" : v.errors.join("; ")}`);
    assert.deepEqual(v.warnings, [], c.name);
  }
});

Deno.test("packContractFor: the pack's skill by name and text, only for the packs asked", () => {
  const skill = {
    name: "superpowers:writing-plans",
    description:
      "Use when you have a spec or requirements for a multi-step task, before touching code",
  };
  assert.equal(packContractFor(skill, ["superpowers"])?.name, "writing-plans");
  assert.equal(packContractFor(skill, []), undefined);
  assert.equal(packContractFor(skill, ["anthropics"]), undefined);
  // A private skill of the same name with its own text is untouched.
  assert.equal(
    packContractFor({ name: "writing-plans", description: "Our team's plan template" }, [
      "superpowers",
    ]),
    undefined,
  );
  assert.equal(packContractFor({ name: "writing-plans" }, ["superpowers"]), undefined);
  // The frontmatter name counts too.
  assert.equal(
    packContractFor({ ...skill, name: "plans", altName: "writing-plans" }, ["superpowers"])?.name,
    "writing-plans",
  );
});

Deno.test("contract_packs: config takes none or the packs that have contracts", async () => {
  const { CONFIG_KEYS, validateConfigValue } = await import("../base/config.ts");
  assert.deepEqual(CONFIG_KEYS.contract_packs.choices, ["none", ...CONTRACT_PACK_NAMES]);
  assert.equal(validateConfigValue("contract_packs", "superpowers"), undefined);
  assert.equal(validateConfigValue("contract_packs", "none"), undefined);
  assert.equal(
    validateConfigValue("contract_packs", "superpowers,nope"),
    "contract_packs takes none, superpowers (not nope)",
  );
});

Deno.test("withPackContracts: the skill's own (or an overlay's) contract beats the pack's", () => {
  const base: { name: string; description: string; contract?: unknown; contractPack?: string } = {
    name: "writing-plans",
    description: "Use when you have a spec or requirements for a multi-step task, before code",
  };
  const own = { version: 1, items: [{ id: "mine", kind: "report_labels", heading: "X" }] };
  const [plain, mine] = withPackContracts([base, { ...base, contract: own }], ["superpowers"]);
  assert.equal(plain.contractPack, "superpowers");
  assert.deepEqual(
    plain.contract,
    PACK_CONTRACTS.find((c) => c.name === "writing-plans")!.contract,
  );
  assert.equal(mine.contractPack, undefined);
  assert.equal(mine.contract, own);
  assert.equal(withPackContracts([base], [])[0].contract, undefined);
});
