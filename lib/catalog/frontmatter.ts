/**
 * SKILL.md and agent frontmatter: split the `---` block from the body and parse it. Strict YAML
 * first (js-yaml, loaded lazily so hooks that read the catalog index never load it); when strict
 * YAML fails, each top-level key is parsed on its own, strictly, and only a key whose own lines
 * fail is read by a lenient `key: value` reader, because Claude Code's own loader accepts what
 * strict YAML rejects (an unquoted `: ` in a description, say) and still reads the other keys (a
 * `contract:` block below such a description is read as the mapping it is). Tolerates a BOM, CRLF
 * line ends, block scalars and a missing closing line.
 *
 * @module
 */

/** A file split into its frontmatter text and body. */
export interface FrontmatterSplit {
  /** The YAML between the `---` lines, or `undefined` when the file has none. */
  readonly yaml?: string;
  /** The text after the frontmatter (the whole file when there is none). */
  readonly body: string;
}

/** Parsed frontmatter. */
export interface Frontmatter {
  /** The top-level keys and values (an empty object when there is no frontmatter). */
  readonly data: Record<string, unknown>;
  /** The body text. */
  readonly body: string;
  /** What was wrong, when the lenient reader was needed. */
  readonly warnings: readonly string[];
  /** True when the YAML parser could not be loaded (a cold cache offline, say), not a YAML error. */
  readonly yamlUnavailable?: boolean;
  /** Each top-level key that strict YAML could not read (so it was read leniently), with its line. */
  readonly yamlErrors?: readonly YamlKeyError[];
}

/** A top-level frontmatter key that is not valid YAML on its own. */
export interface YamlKeyError {
  /** The key (`undefined` for lines before the first key). */
  readonly key?: string;
  /** The line of the file (1-based; the opening `---` is line 1) where the YAML error is. */
  readonly line: number;
  /** The YAML parser's reason, such as `bad indentation of a mapping entry`. */
  readonly message: string;
}

/**
 * Splits frontmatter from the body. The file must start with `---` (after an optional BOM); the
 * block ends at the next line that is exactly `---` (or `...`), or at the end of the file.
 *
 * @param text The file's text.
 * @returns The frontmatter text and the body.
 */
export function splitFrontmatter(text: string): FrontmatterSplit {
  const src = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  if (!/^---[ \t]*\n/.test(src)) return { body: src };
  const rest = src.slice(src.indexOf("\n") + 1);
  const end = /^(?:---|\.\.\.)[ \t]*$/m.exec(rest);
  if (!end) return { yaml: rest, body: "" };
  const after = rest.slice(end.index + end[0].length);
  return { yaml: rest.slice(0, end.index), body: after.replace(/^\n/, "") };
}

type YamlModule = { load(text: string, opts?: Record<string, unknown>): unknown };
let yamlModule: Promise<YamlModule> | undefined;

/**
 * Loads the YAML parser on first use.
 *
 * @returns js-yaml.
 */
export function loadYaml(): Promise<YamlModule> {
  // js-yaml bundled by `deno task gen` (tools/gen.ts ENGINES): nothing is fetched at first use.
  yamlModule ??= import("../base/vendor/js_yaml.js").then((m) =>
    (m.default ?? m) as unknown as YamlModule
  );
  return yamlModule;
}

/**
 * A lenient reader of top-level `key: value` lines: values are kept as strings (quotes removed),
 * a `- item` list under a key becomes an array, and indented or block-scalar continuation lines are
 * joined to their key's value. Nested keys are never taken as top-level ones.
 *
 * @param yaml The frontmatter text.
 * @returns The top-level keys.
 */
export function lenientParse(yaml: string): Record<string, unknown> {
  const data: Record<string, unknown> = Object.create(null);
  let current: string | undefined;
  for (const line of yaml.split("\n")) {
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const top = /^([A-Za-z0-9_][A-Za-z0-9_.-]*)\s*:(?:\s+(.*)|\s*)$/.exec(line);
    if (top) {
      current = top[1];
      const value = (top[2] ?? "").trim();
      data[current] = /^[|>][+-]?$/.test(value) ? "" : unquote(value);
      continue;
    }
    if (current === undefined || !/^\s/.test(line)) continue;
    const item = /^\s+-\s+(.*)$/.exec(line);
    const prev = data[current];
    if (item && (prev === "" || Array.isArray(prev))) {
      data[current] = [...(Array.isArray(prev) ? prev : []), unquote(item[1].trim())];
    } else if (typeof prev === "string") {
      data[current] = prev === "" ? line.trim() : `${prev} ${line.trim()}`;
    }
  }
  return data;
}

function unquote(value: string): string {
  if (value.length >= 2 && /^(['"]).*\1$/.test(value)) return value.slice(1, -1);
  return value;
}

/** A top-level key's lines of a frontmatter block. */
interface KeyChunk {
  readonly key?: string;
  /** Its first line, 0-based within the frontmatter text. */
  readonly start: number;
  readonly text: string;
}

/**
 * Splits frontmatter into its top-level keys: a key line and every line after it that is not
 * another top-level key (indented lines, blank lines, comments, `- item` lines).
 */
function keyChunks(yaml: string): KeyChunk[] {
  const chunks: { key?: string; start: number; lines: string[] }[] = [];
  yaml.split("\n").forEach((line, i) => {
    const top = /^([A-Za-z0-9_][A-Za-z0-9_.-]*|"[^"]*"|'[^']*')\s*:(?:\s|$)/.exec(line);
    if (top || chunks.length === 0) {
      chunks.push({
        key: top ? top[1].replace(/^["']|["']$/g, "") : undefined,
        start: i,
        lines: [],
      });
    }
    chunks.at(-1)!.lines.push(line);
  });
  return chunks.map((c) => ({ key: c.key, start: c.start, text: c.lines.join("\n") }));
}

/** The 0-based line of a js-yaml error, and its short reason. */
function yamlErrorOf(err: unknown): { line: number; reason: string } {
  const e = err as { mark?: { line?: unknown }; reason?: unknown; message?: unknown };
  const line = typeof e?.mark?.line === "number" ? e.mark.line : 0;
  const reason = typeof e?.reason === "string"
    ? e.reason
    : err instanceof Error
    ? err.message.split("\n")[0]
    : String(err);
  return { line, reason };
}

/** The file line of a frontmatter line: the opening `---` is line 1. */
const FIRST_YAML_LINE = 2;

/**
 * Reads each top-level key on its own: strictly, else leniently (recording why).
 */
function parseByKey(
  yaml: string,
  load: YamlModule["load"],
): { data: Record<string, unknown>; errors: YamlKeyError[] } {
  const data: Record<string, unknown> = Object.create(null);
  const errors: YamlKeyError[] = [];
  for (const chunk of keyChunks(yaml)) {
    try {
      const value = load(chunk.text, { json: true });
      if (value === null || value === undefined) continue;
      if (typeof value !== "object" || Array.isArray(value)) throw new Error("not a mapping");
      Object.assign(data, value);
    } catch (err) {
      const { line, reason } = yamlErrorOf(err);
      errors.push({
        ...(chunk.key !== undefined ? { key: chunk.key } : {}),
        line: FIRST_YAML_LINE + chunk.start + line,
        message: reason,
      });
      Object.assign(data, lenientParse(chunk.text));
    }
  }
  return { data, errors };
}

/**
 * Parses a file's frontmatter: strict YAML; when that fails, each top-level key strictly on its
 * own, and the lenient reader for the keys that still fail.
 *
 * @param text The file's text.
 * @returns The top-level data, the body and any warnings. Never throws.
 */
export async function parseFrontmatter(text: string): Promise<Frontmatter> {
  const { yaml, body } = splitFrontmatter(text);
  if (yaml === undefined) return { data: {}, body, warnings: [] };
  let load: YamlModule["load"];
  try {
    ({ load } = await loadYaml());
  } catch (err) {
    yamlModule = undefined;
    const reason = err instanceof Error ? err.message.split("\n")[0] : String(err);
    return {
      data: lenientParse(yaml),
      body,
      warnings: [`YAML parser unavailable: ${reason}`],
      yamlUnavailable: true,
    };
  }
  let whole: { line: number; reason: string };
  try {
    const data = load(yaml, { json: true });
    if (data === null || data === undefined) return { data: {}, body, warnings: [] };
    if (typeof data !== "object" || Array.isArray(data)) {
      return { data: {}, body, warnings: ["Frontmatter is not a mapping"] };
    }
    return { data: data as Record<string, unknown>, body, warnings: [] };
  } catch (err) {
    whole = yamlErrorOf(err);
  }
  const { data, errors } = parseByKey(yaml, load);
  return {
    data,
    body,
    warnings: [`Strict YAML failed: ${whole.reason} (line ${FIRST_YAML_LINE + whole.line})`],
    yamlErrors: errors,
  };
}
