/**
 * The pasted evidence in a prompt, cut out before the request reader (`request.ts`) reads it:
 * fenced code blocks, lines that look like a log or a stack trace, inline code, an inline SQL
 * statement (its keywords in capitals), snake_case names, quoted text, asides
 * in parentheses (one with a local address is read as `website`), URLs (read as the word
 * `website`, a pull request URL as `pull request`), file
 * paths and file names (`file`). One or two quoted plain words are a mention and are dropped, not
 * kept as evidence. Things named by a compound are read as what they are: "review comments" as
 * "comments", "a design review" or "review my plan" as an assessment ("assess"), "the QA
 * environment" as "the environment".
 *
 * @module
 */

const FENCE = /```[\s\S]*?(?:```|$)/g;
const INLINE_CODE = /`[^`\n]+`/g;
const DOUBLE_QUOTED = /["\u201c\u201d][^"\u201c\u201d\n]{1,300}["\u201c\u201d]/g;
/**
 * Quoted text of one or two plain words with a lower-case letter: a name or a term mentioned, not
 * an error code (`"ECONNRESET"`).
 */
const MENTION = /^.(?=[^"\u201c\u201d]*[a-z])[A-Za-z]+(?:[ '-][A-Za-z]+)?.$/;
/**
 * Text in single quotes, opened after a space or a colon and closed before a space or punctuation
 * (up to 300 characters, one bounded class: no backtracking on a quote left open); of three or
 * more words it is a quotation ("got this on my PR: 'extract the parser into its own module'"),
 * not an apostrophe ("don't", "the user's") or a quoted word.
 */
const SINGLE_QUOTED =
  /(?<=^|[\s:(\[])['\u2018][^'\u2018\u2019\n]{1,300}['\u2019](?=$|[\s.,;:!?)\]])/g;
/** Two spaces inside the quotes: three words or more. */
const THREE_WORDS = /\S\s+\S+\s+\S/;
/** Text in parentheses after a space: an aside (not a call such as `handle(...)`). */
const PAREN = /(?<=^|\s)\([^()\n]{1,300}\)(?=$|[\s.,;:!?])/g;
/** "the QA environment", "our QA team": QA naming a place or people, not QA asked for. */
const QA_NOUN =
  /\bqa\s+(environments?|envs?|teams?|engineers?|servers?|stacks?|databases?|db|checklists?|process|leads?|departments?|people|folks|tester|testers)\b/gi;
/**
 * A review of something other than code: "a design review of the landing page", "review my plan
 * for the billing system" (the review concept is for changes to code).
 */
const OTHER_REVIEW =
  /\b(?:design|architecture|ux|ui|copy|plan|product|performance)\s+review\b|\breview\s+(?:(?:the|my|our|this|a)\s+)?(?:\w+\s+)?(?:plan|design|proposal|spec|rfc|architecture|roadmap|doc|docs|document|essay|resume|cv|copy)\b(?!\s+(?:changes?|diff|pr|branch|commits?)\b)/gi;
/**
 * "LOG_LEVEL=debug", "DEBUG=true", "the log level on DEBUG", "the logger at debug level": a log
 * level or a debug switch named (up to 60 characters after "log level", one bounded class), not
 * debugging asked for.
 */
const DEBUG_LEVEL =
  /=\s*["']?debug\b|\bdebug\s*=|\bdebug\s+level\b|\blog[\s_-]?level\b[^.!?\n]{0,60}/gi;
/** "review comments", "review feedback": a review's output named by a noun compound. */
const REVIEW_OUTPUT = /\breview\s+(comments?|feedback|notes|nits|remarks|suggestions|threads?)\b/gi;
// A URL ends before the punctuation that follows it ("open http://localhost:3000, then …").
const PR_URL = /\bhttps?:\/\/\S+\/(?:pull|pulls|merge_requests)\/\d+(?:\S*[^\s.,;:!?)\]'"])?/gi;
const URL =
  /\bhttps?:\/\/\S*[^\s.,;:!?)\]'"]|\blocalhost(?::\d+)?(?:\/\S*[^\s.,;:!?)\]'"])?|\b127\.0\.0\.1(?::\d+)?(?:\/\S*[^\s.,;:!?)\]'"])?/gi;
/** A local address: the app under test on the user's machine. */
const LOCAL = /\blocalhost\b|\b(?:127\.0\.0\.1|0\.0\.0\.0)\b/i;
const HOST =
  /\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|org|net|io|dev|app|co|ai|site|page)(?::\d+)?(?:\/\S*)?(?=[\s,;:!?)]|\.?$|\.\s)/gi;
/** Paths with a slash (`src/a.ts`, `/opt/x`, `./pkg/...`, `.claude/`) and file names (`a.ts`). */
const PATH = /(?:^|(?<=[\s(\[,:=]))(?:~|\.{1,2})?\/?[\w.@*-]+(?:\/[\w.@*-]*)+(?<!\.)/g;
const FILE_NAME =
  /\b[\w.-]+\.(?:ts|tsx|js|jsx|mjs|cjs|py|rs|go|rb|java|kt|swift|c|h|cc|cpp|cs|ex|exs|php|json|ya?ml|toml|md|sh|css|scss|html|sql|conf|lock|txt|env|cfg|ini|xml|gradle|tf|lua)\b/gi;
/** A line of a log or a stack trace. */
const LOG_LINE = new RegExp(
  [
    String.raw`^\s+at\s`,
    String.raw`^\s*(?:File ".*", line \d+|Traceback \(most recent call last\))`,
    String.raw`^\s*E\s{2,}`,
    String.raw`^\s*\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d`,
    String.raw`^\s*\[\d\d/\w{3}/\d{4}`,
    String.raw`^\s*(?:\d{1,3}\.){3}\d{1,3}\s+-`,
    String.raw`^\s*[\w.$]*(?:Error|Exception|Warning)\b[\w.]*:`,
    String.raw`^\s*(?:error|warning|fatal|panic|note)(?:\[\w+\])?:`,
    String.raw`^\s*thread '.*' panicked`,
    String.raw`^\s*Exception in thread`,
    String.raw`^\s*[\w./-]+:\d+(?::\d+)?\b`,
    String.raw`^\s*[\w./-]+\(\d+,\d+\):`,
    String.raw`^\s*[-dlrwx]{10}\s`,
    String.raw`^\s*(?:\$|>|#)\s`,
    String.raw`^\s*\d+\s*\|`,
    String.raw`^\s{4,}\S`,
  ].join("|"),
  "i",
);
/**
 * A SQL statement written inline, keywords in capitals ("SELECT u.email FROM events e JOIN …"):
 * code, to the end of its line or its `;`.
 */
const INLINE_SQL =
  /\b(?:EXPLAIN(?: ANALYZE)? )?(?:SELECT|INSERT INTO|UPDATE|DELETE FROM|WITH)\b(?=[^\n]*\b(?:FROM|SET|VALUES|WHERE)\b)[^\n;]*;?/g;
/** A snake_case name (`parse_record`, `tenant_id`, `_physics_process`): code, not words. */
const SNAKE_NAME = /(?<![\w.-])_*[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+_*(?![\w-])/g;
/** A log line that opens with an upper-case level. */
const LEVEL_LINE = /^\s*(?:\[[^\]]*\]\s*)?(?:INFO|DEBUG|WARN|WARNING|ERROR|FATAL|TRACE|CRITICAL)\b/;

/** A prompt's text with its evidence cut out, and the evidence. */
export interface CutPrompt {
  /** The text left, with URLs and paths replaced by a word. */
  readonly text: string;
  /** The pieces cut out, for the symptom rules. */
  readonly evidence: string[];
  /** The words put in for URLs, paths and code (`website`, `file`, `code`), each time. */
  readonly standIns: string[];
}

/**
 * Cuts the pasted evidence out of a prompt (see the module doc).
 *
 * @param prompt The prompt text.
 * @returns The text left and the evidence.
 */
export function cutEvidence(prompt: string): CutPrompt {
  const evidence: string[] = [];
  const standIns: string[] = [];
  const cut = (text: string, re: RegExp, by: string) =>
    text.replace(re, (m) => {
      evidence.push(m);
      // A pull request's URL names a pull request: only the looser stand-ins are marked.
      if (by.trim() && by !== " pull request ") standIns.push(by.trim());
      return by;
    });
  let text = String(prompt);
  // Each pattern runs only when a cheap test says it can match: compiling them costs the hook
  // time on every prompt.
  if (text.includes("```")) text = cut(text, FENCE, "\n");
  if (text.includes("\n")) {
    text = text.split("\n").map((line) => {
      if (LOG_LINE.test(line) || LEVEL_LINE.test(line)) {
        evidence.push(line);
        return "";
      }
      return line;
    }).join("\n");
  }
  if (/debug/i.test(text)) text = text.replace(DEBUG_LEVEL, (m) => m.replace(/debug/gi, "level"));
  if (text.includes("`")) text = cut(text, INLINE_CODE, " code ");
  if (/SELECT|INSERT|UPDATE|DELETE|WITH/.test(text)) text = cut(text, INLINE_SQL, " code ");
  if (text.includes("_")) text = cut(text, SNAKE_NAME, " code ");
  if (text.includes('"') || text.includes("\u201c") || text.includes("\u201d")) {
    // One or two quoted plain words name a thing ("bug" and "regression" labels, the "Save"
    // button): a mention, not pasted evidence of a malfunction.
    text = text.replace(DOUBLE_QUOTED, (m) => {
      if (!MENTION.test(m)) evidence.push(m);
      return " ";
    });
  }
  if (text.includes("'") || text.includes("\u2018")) {
    text = text.replace(SINGLE_QUOTED, (m) => {
      if (!THREE_WORDS.test(m)) return m;
      evidence.push(m);
      return " ";
    });
  }
  // "(npm run dev, port 3000)", "(it was the missing config)": an aside, never the request.
  // A local address in it ("(localhost:8000)") names the product under test: it stays `website`.
  if (text.includes("(")) {
    text = text.replace(PAREN, (m) => {
      evidence.push(m);
      if (!LOCAL.test(m)) return " ";
      standIns.push("website");
      return " website ";
    });
  }
  // "the review comments on my PR", "review feedback": what someone's review said, a thing to
  // act on or talk about, not a review asked for.
  if (/review /i.test(text)) text = text.replace(REVIEW_OUTPUT, "$1");
  if (/review/i.test(text)) {
    text = text.replace(OTHER_REVIEW, (m) => m.replace(/review/i, "assess"));
  }
  if (/qa /i.test(text)) text = text.replace(QA_NOUN, "$1");
  if (text.includes("http")) text = cut(cut(text, PR_URL, " pull request "), URL, " website ");
  if (text.includes("localhost") || text.includes("127.0.0.1")) text = cut(text, URL, " website ");
  const dotted = /\.[A-Za-z]/.test(text);
  if (dotted) text = cut(text, HOST, " website ");
  if (text.includes("/")) text = cut(text, PATH, " file ");
  if (dotted) text = cut(text, FILE_NAME, " file ");
  return { text, evidence, standIns };
}
