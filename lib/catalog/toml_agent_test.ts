import assert from "node:assert/strict";
import { tomlAgentName } from "./toml_agent.ts";

Deno.test("tomlAgentName() reads the top-level name key, basic or literal, else the file stem", () => {
  assert.equal(
    tomlAgentName('name = "prompt-writer"\ndescription = "x"\n', "a.toml"),
    "prompt-writer",
  );
  assert.equal(tomlAgentName("name = 'lit\\eral' # note\n", "a.toml"), "lit\\eral");
  assert.equal(tomlAgentName('name = "q\\"uote"\n', "a.toml"), 'q"uote');
  assert.equal(tomlAgentName('description = "d"\n[x]\nname = "inner"\n', "stem.toml"), "stem");
  assert.equal(tomlAgentName('name = ""\n', "stem.toml"), "stem");
  assert.equal(tomlAgentName("name = unquoted\n", "stem.TOML"), "stem");
  assert.equal(tomlAgentName("", "only.toml"), "only");
});
