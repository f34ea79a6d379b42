/**
 * The concept table of the routing scorer (`score.ts`): words and phrases that mean the same thing
 * in a request to a coding agent count as one key (`fails` matches `bug`). Every entry is a general
 * synonym (some in German, French, Spanish, Portuguese and Italian) or comes from a routable
 * skill's own text; the table is hashed into the trigger compiler's fingerprint, so the routing
 * index recompiles its triggers when it changes.
 *
 * @module
 */

/**
 * Concept groups: each key stands for every word in its list (compared after `stem` of `score.ts`).
 * Small on purpose; every entry is a plain synonym in a request to a coding agent, and the set is
 * checked against the labeled prompts (`skillgate route eval fixtures/routing/labeled.tsv`).
 */
export const CONCEPTS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  /** Something does not work as it should. */
  bug: [
    "bug",
    "buggy",
    "fail",
    "failing",
    "failure",
    "broken",
    "break",
    "breaks",
    "broke",
    "error",
    "crash",
    "exception",
    "regression",
    "flaky",
    "panic",
    "segfault",
    "hang",
    "hangs",
    "freeze",
    "freezes",
    "wrong",
    // General synonyms.
    "defect",
    "glitch",
    "glitchy",
    "busted",
    "misbehave",
    "misbehaves",
    "misbehaving",
    // The common words in German, French, Spanish, Portuguese and Italian.
    "fehler",
    "kaputt",
    "absturz",
    "erreur",
    "bogue",
    "plantage",
    "cassé",
    "fallo",
    "falla",
    "roto",
    "erro",
    "falha",
    "quebrado",
    "errore",
    "rotto",
    "stürzt",
    "abgestürzt",
    "plante",
    "falhando",
    "fallando",
    // Russian.
    "сломан",
    "сломано",
    "сломалось",
    "сломался",
    "падает",
    "падают",
    "упал",
    "упало",
    "ошибка",
    "ошибку",
    "ошибки",
    "ошибкой",
    "баг",
    "баги",
  ],
  /** Make it work again. */
  fix: [
    "fix",
    "repair",
    "resolve",
    "solve",
    // German, French, Spanish, Portuguese, Italian.
    "beheben",
    "behebe",
    "reparieren",
    "repariere",
    "corriger",
    "corrige",
    "réparer",
    "répare",
    "arreglar",
    "arregla",
    "corregir",
    "corrigir",
    "corrija",
    "consertar",
    "conserte",
    "correggere",
    "correggi",
    "sistemare",
    // Russian.
    "исправь",
    "исправьте",
    "исправить",
    "почини",
    "починить",
  ],
  /** Look for why it does not work (investigate: "troubleshooting", "root cause"). */
  debug: [
    "debug",
    "troubleshoot",
    "diagnose",
    "investigate",
    // German, French, Spanish, Portuguese, Italian, Russian.
    "debuggen",
    "untersuchen",
    "déboguer",
    "deboguer",
    "depurar",
    "investigar",
    "debuggare",
    "indagare",
    "отладить",
    "отладь",
  ],
  /** Look a thing over (review: "check my diff"). */
  check: ["check", "проверь", "проверьте", "проверить"],
  /** Read a change and judge it. */
  review: [
    "review",
    "critique",
    // German, French, Spanish, Portuguese, Italian ("revise" is English for edit: not here).
    "überprüfen",
    "überprüfe",
    "prüfen",
    "prüfe",
    "relire",
    "relis",
    "revoir",
    "revue",
    "revisar",
    "revisa",
    "revisión",
    "revisão",
    "rivedere",
    "rivedi",
    "revisione",
    "reviewen",
    "ревью",
    "отревьюй",
  ],
  /** Why something happens: German, French, Italian (Spanish and Portuguese in {@link PHRASES}). */
  why: ["why", "warum", "wieso", "weshalb", "pourquoi", "perché", "perche", "почему"],
  /** Try it: German, French, Spanish, Portuguese, Italian. */
  test: [
    "test",
    "testen",
    "teste",
    "tester",
    "probar",
    "prueba",
    "testar",
    "provare",
    "prova",
    "testa",
    "тест",
    "тесты",
    "протестируй",
    "протестировать",
  ],
  /**
   * A proposed change: a pull request, a diff, commits (review: "analyzes diff against the base
   * branch"). "changes" stems like the verb "change", so a set of changes is in {@link PHRASES}.
   */
  pr: ["pr", "diff", "changeset", "commit", "commits", "branch"],
  /** A web site under test (qa: "a web application"). */
  site: ["site", "website", "webapp", "webpage", "sito", "sitio", "сайт"],
  /** Kubernetes and its common short form (wshobson's kubernetes skills write both). */
  kubernetes: ["kubernetes", "k8s"],
  /** PostgreSQL and its common short forms (wshobson's postgresql skills write "PostgreSQL"). */
  postgresql: ["postgresql", "postgres"],
  /** At the same time (dispatching-parallel-agents: "can happen in parallel", "work concurrently"). */
  parallel: ["parallel", "concurrently", "concurrent", "simultaneously"],
  /** A shift's hand-off: "handover" in British English (on-call-handoff-patterns writes "handoff"). */
  handoff: ["handoff", "handover", "handoffs", "handovers"],
});

/**
 * Phrases that stand for concept keys. In a prompt a phrase adds every key it lists (`qa` in a
 * prompt is also `test`); in a trigger a phrase with one key counts as one content word. Apostrophes are already gone (`what's` →
 * `whats`).
 */
export const PHRASES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  "pull request": ["pr"],
  "pull requests": ["pr"],
  "merge request": ["pr"],
  "merge requests": ["pr"],
  "my changes": ["pr"],
  "the changes": ["pr"],
  "these changes": ["pr"],
  "those changes": ["pr"],
  "your changes": ["pr"],
  "our changes": ["pr"],
  "code changes": ["pr"],
  "what i changed": ["pr"],
  "what ive changed": ["pr"],
  "i changed": ["pr"],
  "ive changed": ["pr"],
  "i refactored": ["pr"],
  "my implementation": ["pr"],
  "staged changes": ["pr"],
  "uncommitted changes": ["pr"],
  "local changes": ["pr"],
  "latest changes": ["pr"],
  "recent changes": ["pr"],
  "web app": ["site"],
  // A dev server serves the product under test.
  "dev server": ["site"],
  "look over": ["review"],
  "once over": ["review"],
  "off by one": ["bug"],
  "stopped working": ["bug"],
  "stops working": ["bug"],
  "not working": ["bug"],
  "isnt working": ["bug"],
  "doesnt work": ["bug"],
  "how come": ["why"],
  "por qué": ["why"],
  "por que": ["why"],
  "funktioniert nicht": ["bug"],
  "ne marche pas": ["bug"],
  "ne fonctionne pas": ["bug"],
  "no funciona": ["bug"],
  "não funciona": ["bug"],
  "non funziona": ["bug"],
  "whats wrong": ["why", "bug"],
  "what broke": ["why", "bug"],
  "whats going on": ["why"],
  "what is going on": ["why"],
  "whats happening": ["why"],
  "what is happening": ["why"],
  qa: ["qa", "test"],
  "exploratory testing": ["qa", "test"],
  "exploratory test": ["qa", "test"],
  "exploratory tests": ["qa", "test"],
  "in the browser": ["site"],
  "in a browser": ["site"],
  "in chrome": ["site"],
  "in firefox": ["site"],
  "in safari": ["site"],
  // From the routable skills' texts. investigate: "unexpected behavior".
  "unexpected behavior": ["bug"],
  "unexpected behaviour": ["bug"],
  // qa: "a web application", "quality check" (a voice alias).
  "web application": ["site"],
  "web page": ["site"],
  "quality check": ["qa", "test"],
  // qa: "Use when asked to … 'test and fix'", "when the user says a feature is ready for testing".
  "test and fix": ["qa", "test", "fix"],
  "ready for testing": ["qa", "test"],
  "ready to test": ["qa", "test"],
  // General synonyms. investigate: to look for a cause; review: a reader's judgement; qa: testing
  // a product by hand.
  "dig into": ["debug"],
  "get to the bottom": ["debug"],
  "second opinion": ["review"],
  // review: "Pre-landing PR review", "about to merge or land": merging is landing.
  // "pre-landing": before a change lands; merging is landing.
  "pre merge": ["review", "pre", "land"],
  "about to land": ["pre", "land"],
  "about to merge": ["pre", "land"],
  "before i land": ["pre", "land"],
  "before i merge": ["pre", "land"],
  "before landing": ["pre", "land"],
  "before merging": ["pre", "land"],
  "ready to land": ["pre", "land"],
  "ready to merge": ["pre", "land"],
  "second pair of eyes": ["review"],
  "sanity check": ["review"],
  "manual testing": ["qa", "test"],
  "manually test": ["qa", "test"],
  "smoke test": ["qa", "test"],
  "click around": ["qa", "test"],
  "click through": ["qa", "test"],
  dogfood: ["qa", "test"],
  "poke around": ["qa", "test"],
  "poke at": ["qa", "test"],
  "try out": ["test"],
  "kick the tires": ["qa", "test"],
  "for a spin": ["qa", "test"],
  "try it out": ["test"],
  // A general synonym: what happens "at the same time" happens in parallel.
  "at the same time": ["parallel"],
  // To talk or think an idea through together is to brainstorm it (brainstorming: "turn ideas into
  // fully formed designs and specs through natural collaborative dialogue").
  "talk it through": ["brainstorm", "design"],
  "think it through": ["brainstorm", "design"],
  "talk this through": ["brainstorm", "design"],
  "think this through": ["brainstorm", "design"],
  "talk through": ["brainstorm", "design"],
  "think through": ["brainstorm", "design"],
  "hash out": ["brainstorm", "design"],
  // To work through a plan is to execute it (executing-plans: "execute the plan").
  "work through": ["execut"],
  // To say work is done or fixed is to claim it (verification-before-completion: "about to claim
  // work is complete, fixed, or passing").
  "tell me its done": ["claim"],
  "tell me it is done": ["claim"],
  "tell me its fixed": ["claim"],
  "tell me it works": ["claim"],
  "say its done": ["claim"],
  "say its fixed": ["claim"],
  "say it works": ["claim"],
  "say done": ["claim"],
  "said done": ["claim"],
  "said it was fixed": ["claim"],
  "said its fixed": ["claim"],
  "said it was done": ["claim"],
});

/**
 * Terms of scripts written without spaces between words (Chinese, Japanese; Korean attaches its
 * particles), found as substrings of a prompt: the common words for why, broken, error, bug, fix,
 * debug, review, test and site. A prompt's keys only; triggers are never read this way.
 */
export const SCRIPT_TERMS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  // Chinese.
  "为什么": ["why"],
  "為什麼": ["why"],
  "报错": ["bug"],
  "錯誤": ["bug"],
  "错误": ["bug"],
  "崩溃": ["bug"],
  "坏了": ["bug"],
  "失败": ["bug"],
  "修复": ["fix"],
  "调试": ["debug"],
  "审查": ["review"],
  "评审": ["review"],
  "测试": ["test"],
  "网站": ["site"],
  // Japanese.
  "なぜ": ["why"],
  "どうして": ["why"],
  "エラー": ["bug"],
  "バグ": ["bug"],
  "失敗": ["bug"],
  "壊れ": ["bug"],
  "直して": ["fix"],
  "修正": ["fix"],
  "デバッグ": ["debug"],
  "レビュー": ["review"],
  "テスト": ["test"],
  "サイト": ["site"],
  // Korean.
  "왜": ["why"],
  "에러": ["bug"],
  "오류": ["bug"],
  "버그": ["bug"],
  "고쳐": ["fix"],
  "수정해": ["fix"],
  "디버그": ["debug"],
  "리뷰": ["review"],
  "테스트": ["test"],
  "사이트": ["site"],
});
