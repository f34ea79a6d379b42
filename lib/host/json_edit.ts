/**
 * Minimal textual edits to a JSON file a person keeps (Claude Code's `settings.json`, a Codex or
 * Copilot CLI hook file): only the values that change are rewritten, in the file's own indent and
 * line ends; every other byte (the user's key order, blank lines, one-line arrays, spacing) stays,
 * and so do the `//` and `/* *\/` comments of a file that may hold them (Gemini CLI's
 * `settings.json`): a comment goes only inside a value that is itself removed or rewritten (a
 * removal never cuts one beside it), and a file with comments is never written whole.
 *
 * The edits come from `jsonc-parser` (Microsoft's, the one VS Code edits `settings.json` with:
 * `modify` gives the edit for one path, `applyEdits` applies them): a well-kept library that already
 * handles commas, insertion points and indentation of inserted values. It costs about 0.1 s to load
 * (a CommonJS package), paid only by `setup` and `uninstall`, never by a hook.
 *
 * @module
 */

import {
  applyEdits,
  createScanner,
  findNodeAtLocation,
  modify,
  type Node,
  parseTree,
  stripComments,
  type SyntaxKind,
} from "npm:jsonc-parser@^3.3.1";
import { isJsonObject, jsonEqual } from "./json.ts";

type Path = (string | number)[];

/** How a file is formatted: the indent unit and the line end. */
export interface Formatting {
  /** One level of indent: a tab, or some spaces. */
  readonly unit: string;
  /** The line end. */
  readonly eol: "\n" | "\r\n";
}

/**
 * The formatting a JSON text uses: the indent unit of its first indented line (a tab, or that many
 * spaces; two spaces when there is none) and its line end.
 *
 * @param text The JSON text.
 * @returns The formatting.
 */
export function formattingOf(text: string): Formatting {
  const eol = /\r\n/.test(text) ? "\r\n" : "\n";
  const indent = /\n([ \t]+)["{[\]}\w-]/.exec(text)?.[1] ?? "  ";
  return { unit: indent.startsWith("\t") ? "\t" : indent, eol };
}

/**
 * The text of a JSON document after changing its value from what `before` holds to `next`, by the
 * fewest textual edits: a changed leaf value is replaced where it stands; a removed key or array
 * item is cut with its comma; a new key is added after the object's last key and a new array item
 * beside its neighbour, each in the indent of its siblings (on one line when they are); an array
 * whose items changed keeps its unchanged first and last items and edits the ones between. The
 * result always parses to `next` (checked; should an edit ever not, the whole document is written
 * in the file's indent instead).
 *
 * @param before The file's current text (valid JSON, with comments where the file allows them).
 * @param next The value the file must hold.
 * @returns The new text.
 * @throws {Error} When `before` has comments and the edits did not give `next` (it is never
 *   written whole without them).
 */
export function editJsonText(before: string, next: unknown): string {
  const edited = minimalEdit(before, next);
  if (edited !== undefined) return edited;
  if (hasComments(before)) {
    throw new Error("The edit could not keep the file's comments");
  }
  const bom = before.startsWith("\uFEFF") ? "\uFEFF" : "";
  const fmt = formattingOf(before);
  const whole = JSON.stringify(next, null, fmt.unit).replaceAll("\n", fmt.eol);
  return bom + whole + (/\n$/.test(before) ? fmt.eol : "");
}

/**
 * The edits of {@link editJsonText} alone.
 *
 * @param before The file's current text (valid JSON, with comments where the file allows them).
 * @param next The value the file must hold.
 * @returns The new text, or `undefined` when the edits did not give `next` (not expected).
 */
export function minimalEdit(before: string, next: unknown): string | undefined {
  const bom = before.startsWith("\uFEFF") ? "\uFEFF" : "";
  const body = bom ? before.slice(1) : before;
  const fmt = formattingOf(body);
  let text = body;
  diff(parseJsonc(body), next, [], (op) => {
    text = applyOp(text, op, fmt);
  });
  try {
    return jsonEqual(parseJsonc(text), next) ? bom + text : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Parses JSON that may hold `//` and `/* *\/` comments, as Gemini CLI reads its settings (comments
 * stripped, then strict JSON: no trailing comma).
 *
 * @param text The text.
 * @returns The value.
 * @throws {SyntaxError} When the text without its comments is not JSON.
 */
export function parseJsonc(text: string): unknown {
  return JSON.parse(stripComments(text));
}

/**
 * Whether a JSON text holds a comment (outside its strings).
 *
 * @param text The text.
 * @returns `true` when it has one.
 */
export function hasComments(text: string): boolean {
  return /\/[/*]/.test(text) && stripComments(text) !== text;
}

/** One textual change: a value replaced or removed, or a key or an array item added. */
type Op =
  | { readonly kind: "set"; readonly path: Path; readonly value: unknown }
  | { readonly kind: "remove"; readonly path: Path }
  | { readonly kind: "insert"; readonly path: Path; readonly value: unknown };

/** The leading white space of the line that holds `offset`. */
function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))?.[0] ?? "";
}

/** A value's text at an indent: multi-line in the file's formatting, or on one line. */
function renderAt(value: unknown, indent: string, fmt: Formatting, oneLine: boolean): string {
  if (oneLine) return JSON.stringify(value);
  return JSON.stringify(value, null, fmt.unit).replaceAll("\n", fmt.eol + indent);
}

function applyOp(text: string, op: Op, fmt: Formatting): string {
  const tree = parseTree(text) as Node;
  const target = findNodeAtLocation(tree, op.path);
  if (op.kind === "remove") {
    // The key's property node, or the item; cut with the comma between it and a neighbour, so
    // the neighbour keeps the indent the removed one had.
    const node = target?.parent?.type === "property" ? target.parent : target;
    const siblings = node?.parent?.children ?? [];
    const k = node ? siblings.indexOf(node) : -1;
    if (!node || k < 0 || siblings.length < 2) {
      return applyEdits(text, modify(text, op.path, undefined, {}));
    }
    const end = node.offset + node.length;
    if (k < siblings.length - 1) {
      const next = siblings[k + 1].offset;
      if (!hasComments(text.slice(end, next))) {
        return splice(text, node.offset, next - node.offset, "");
      }
      // A comment between it and the next one stays: the node goes with its comma.
      const lineStart = text.lastIndexOf("\n", node.offset - 1) + 1;
      const own = /^[ \t]*$/.test(text.slice(lineStart, node.offset));
      let to = commaAfter(text, end) + 1;
      // Its line goes when nothing else is on it; else the white space after its comma.
      const rest = own ? /^[ \t]*(\r?\n)?/.exec(text.slice(to)) : null;
      if (rest) to += rest[0].length;
      const from = rest?.[1] ? lineStart : node.offset;
      return splice(text, from, to - from, "");
    }
    const prevEnd = siblings[k - 1].offset + siblings[k - 1].length;
    const gap = text.slice(prevEnd, node.offset);
    if (!hasComments(gap)) return splice(text, prevEnd, end - prevEnd, "");
    // A comment between the previous one and it stays: the comma before it goes, then the node
    // with the white space that leads to it on its line.
    const lead = /[ \t]*(?:\r?\n[ \t]*)?$/.exec(gap)?.[0].length ?? 0;
    const cut = splice(text, node.offset - lead, end - node.offset + lead, "");
    return splice(cut, commaAfter(text, prevEnd), 1, "");
  }
  if (op.kind === "set" && target) {
    const indent = lineIndent(text, target.offset);
    const oneLine = !text.slice(target.offset, target.offset + target.length).includes("\n") &&
      target.parent !== undefined && !nodeText(text, target.parent).includes("\n");
    return splice(text, target.offset, target.length, renderAt(op.value, indent, fmt, oneLine));
  }
  // A key or an item added: beside a sibling, in its indent, or on its line when the container
  // is written on one line.
  const container = findNodeAtLocation(tree, op.path.slice(0, -1));
  const siblings = container?.children ?? [];
  if (!container || siblings.length === 0) {
    return applyEdits(text, modify(text, op.path, op.value, {}));
  }
  const oneLine = !nodeText(text, container).includes("\n");
  const key = op.path.at(-1);
  const first = siblings[0];
  const indent = lineIndent(text, first.offset);
  const sep = oneLine ? " " : fmt.eol + indent;
  const item = (typeof key === "string" ? `${JSON.stringify(key)}: ` : "") +
    renderAt(op.value, indent, fmt, oneLine);
  if (typeof key === "number" && key < siblings.length) {
    const at = siblings[key];
    return splice(text, at.offset, 0, `${item},${sep}`);
  }
  const last = siblings[siblings.length - 1];
  const end = last.offset + last.length;
  return splice(text, end, 0, `,${sep}${item}`);
}

/** The scanner's token kinds used here (`SyntaxKind`, a const enum the module cannot import). */
const TOKEN = { comma: 5, lineComment: 12, blockComment: 13, lineBreak: 14, space: 15, eof: 17 };

/** The offset of the comma after a value (past white space and comments), as the scanner reads. */
function commaAfter(text: string, offset: number): number {
  const scanner = createScanner(text, false);
  scanner.setPosition(offset);
  const skip = new Set<number>([
    TOKEN.lineComment,
    TOKEN.blockComment,
    TOKEN.lineBreak,
    TOKEN.space,
  ]);
  for (let t: SyntaxKind = scanner.scan(); t !== TOKEN.eof; t = scanner.scan()) {
    if (t === TOKEN.comma) return scanner.getTokenOffset();
    if (!skip.has(t)) break;
  }
  throw new Error("No comma after a value that has a neighbour");
}

function nodeText(text: string, node: Node): string {
  return text.slice(node.offset, node.offset + node.length);
}

function splice(text: string, offset: number, length: number, content: string): string {
  return text.slice(0, offset) + content + text.slice(offset + length);
}

function diff(a: unknown, b: unknown, path: Path, edit: (op: Op) => void): void {
  if (jsonEqual(a, b)) return;
  // A container keeps its text only while a key or an item of it stays; else it is written anew.
  if (isJsonObject(a) && isJsonObject(b) && Object.keys(a).some((k) => Object.hasOwn(b, k))) {
    for (const key of Object.keys(a)) {
      if (!Object.hasOwn(b, key)) edit({ kind: "remove", path: [...path, key] });
    }
    for (const key of Object.keys(b)) {
      if (Object.hasOwn(a, key)) diff(a[key], b[key], [...path, key], edit);
      else edit({ kind: "insert", path: [...path, key], value: b[key] });
    }
    return;
  }
  const [head, tail] = Array.isArray(a) && Array.isArray(b) ? ends(a, b) : [0, 0];
  const oldMid = Array.isArray(a) ? a.length - head - tail : 0;
  const newMid = Array.isArray(b) ? b.length - head - tail : 0;
  const common = Math.min(oldMid, newMid);
  if (Array.isArray(a) && Array.isArray(b) && head + tail + common > 0) {
    for (let i = 0; i < common; i++) diff(a[head + i], b[head + i], [...path, head + i], edit);
    // Removed items, last first, so the indexes before them stay put; then the new ones.
    for (let i = oldMid - 1; i >= common; i--) edit({ kind: "remove", path: [...path, head + i] });
    for (let i = common; i < newMid; i++) {
      edit({ kind: "insert", path: [...path, head + i], value: b[head + i] });
    }
    return;
  }
  edit({ kind: "set", path, value: b });
}

/** How many items two arrays share at their start, and then at their end. */
function ends(a: unknown[], b: unknown[]): [number, number] {
  let head = 0;
  while (head < a.length && head < b.length && jsonEqual(a[head], b[head])) head++;
  let tail = 0;
  while (
    tail < a.length - head && tail < b.length - head &&
    jsonEqual(a[a.length - 1 - tail], b[b.length - 1 - tail])
  ) tail++;
  return [head, tail];
}
