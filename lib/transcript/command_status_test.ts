import assert from "node:assert/strict";
import fc from "fast-check";
import { claudeCommandEnd, codexCommandEnd, copilotCommandEnd } from "./command_status.ts";

const code = fc.integer({ min: -255, max: 255 });
const output = fc.string({ maxLength: 200 }).filter((s) =>
  !s.trimStart().startsWith("<tool_use_error>")
);

Deno.test("claudeCommandEnd(): Exit code N is failed with N, a plain result passed (property)", () => {
  fc.assert(
    fc.property(code.filter((n) => n !== 0), output, (n, out) => {
      const end = claudeCommandEnd(true, `Exit code ${n}\n${out}`, `Error: Exit code ${n}\n${out}`);
      assert.deepEqual(end, { status: "failed", exitCode: n });
      // The structured string alone says it too (content cut or in blocks).
      assert.deepEqual(
        claudeCommandEnd(true, out.replace(/^\s*Exit code/, ""), `Error: Exit code ${n}\n`),
        {
          status: "failed",
          exitCode: n,
        },
      );
    }),
  );
  fc.assert(
    fc.property(output, output, (stdout, stderr) => {
      const end = claudeCommandEnd(false, stdout, {
        stdout,
        stderr,
        interrupted: false,
        isImage: false,
        noOutputExpected: false,
      });
      assert.equal(end.status, "passed");
    }),
  );
});

Deno.test("claudeCommandEnd(): refused, rejected, interrupted and background commands", () => {
  assert.equal(
    claudeCommandEnd(true, "<tool_use_error>Permission denied</tool_use_error>", "Error: x").status,
    "not_run",
  );
  assert.equal(
    claudeCommandEnd(true, "User rejected tool use", "User rejected tool use").status,
    "not_run",
  );
  assert.equal(
    claudeCommandEnd(false, "", { stdout: "", stderr: "", interrupted: true }).status,
    "unknown",
  );
  assert.equal(
    claudeCommandEnd(false, "Command running in background with ID: b1", {
      stdout: "",
      stderr: "",
      interrupted: false,
      backgroundTaskId: "b1",
    }).status,
    "unknown",
  );
  assert.deepEqual(
    claudeCommandEnd(true, "Command timed out after 2m 0s", "Error: Command timed out"),
    {
      status: "failed",
    },
  );
});

Deno.test("copilotCommandEnd(): shellExecution.exitCode decides; success is true either way (property)", () => {
  fc.assert(
    fc.property(code, output, (n, out) => {
      const data = {
        success: true,
        shellExecution: { exitCode: n },
        result: { content: `${out}\n<shellId: 0 completed with exit code ${n}>` },
      };
      assert.deepEqual(copilotCommandEnd(data), {
        status: n === 0 ? "passed" : "failed",
        exitCode: n,
      });
      // Without shellExecution, the result's last line says it.
      assert.deepEqual(copilotCommandEnd({ success: true, result: data.result }), {
        status: n === 0 ? "passed" : "failed",
        exitCode: n,
      });
    }),
  );
  assert.equal(
    copilotCommandEnd({
      success: true,
      result: { content: "<command started in background with shellId: 3>" },
    })
      .status,
    "unknown",
  );
  assert.equal(
    copilotCommandEnd({ success: false, error: { message: "Denied by preToolUse hook: no" } })
      .status,
    "not_run",
  );
});

Deno.test("codexCommandEnd(): the output header's exit code decides (property)", () => {
  fc.assert(
    fc.property(code, output, (n, out) => {
      const text = `Chunk ID: 227c52\nWall time: 0.0000 seconds\nProcess exited with code ${n}\n` +
        `Original token count: 2\nOutput:\n${out}`;
      assert.deepEqual(codexCommandEnd(text), {
        status: n === 0 ? "passed" : "failed",
        exitCode: n,
      });
    }),
  );
  assert.equal(
    codexCommandEnd("Command blocked by PreToolUse hook: no. Command: x").status,
    "not_run",
  );
  assert.equal(
    codexCommandEnd(
      "Chunk ID: 1\nWall time: 10.0 seconds\nProcess running with session ID 4\nOutput:\n",
    )
      .status,
    "unknown",
  );
});

Deno.test("the status readers never throw and always give a status (property)", () => {
  const statuses = ["passed", "failed", "not_run", "unknown"];
  fc.assert(
    fc.property(fc.boolean(), fc.string(), fc.anything(), (err, text, structured) => {
      assert.ok(statuses.includes(claudeCommandEnd(err, text, structured).status));
      assert.ok(statuses.includes(codexCommandEnd(text).status));
      const data = fc.sample(fc.dictionary(fc.string(), fc.anything()), 1)[0];
      assert.ok(statuses.includes(copilotCommandEnd({ ...data, result: structured }).status));
    }),
    { numRuns: 300 },
  );
});
