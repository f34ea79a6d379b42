/**
 * The reviewed entries of the built-in packs (see `packs.ts`), one line each:
 * `pack|skill name|opening words of its description|trigger;trigger;…`. Written from each skill's
 * own text, never from the prompts routing is measured on.
 *
 * @module
 */

/** The entries, one per line. */
export const PACK_LINES: string = `
superpowers|brainstorming|you must use this before any creative work - creating features, building|brainstorm ideas;brainstorm approaches;brainstorm the design;explore requirements and design;before any creative work;explore user intent
superpowers|dispatching-parallel-agents|use when facing 2+ independent tasks that can be worked on without|dispatch parallel agents;parallel agents;work concurrently;independent tasks in parallel;multiple independent failures;multiple unrelated failures;different root causes;one agent per problem domain;broken independently
superpowers|executing-plans|use when you have a written implementation plan to execute in a|execute the plan;execute this implementation plan;carry out the plan;implement this plan;execute all tasks;separate session;review checkpoints
superpowers|finishing-a-development-branch|use when implementation is complete, all tests pass, and you need to|finish this branch;wrap up this branch;wrap this branch up;finish the development branch;decide how to integrate the work;integrate this branch;implementation complete;merge back locally
superpowers|receiving-code-review|use when receiving code review feedback, before implementing suggestions, especially if feedback|code review feedback;review feedback;address review comments;respond to the review;implementing suggestions;feedback seems unclear
superpowers|requesting-code-review|use when completing tasks, implementing major features, or before merging to verify|request a code review;review my work before merging;verify work meets requirements;before merge to main;code reviewer subagent;request code review
superpowers|subagent-driven-development|use when executing implementation plans with independent tasks in the current session|subagent per task;execute the plan with subagents;subagent driven development;fresh subagent per task;tasks mostly independent;stay in this session
superpowers|systematic-debugging|use when encountering any bug, test failure, or unexpected behavior, before proposing|debug this;why is this broken;root cause analysis;investigate this error;find the root cause
superpowers|test-driven-development|use when implementing any feature or bugfix, before writing implementation code|test driven development;tdd;write the failing test first;test first;red green refactor
superpowers|using-git-worktrees|use when starting feature work that needs isolation from current workspace or|git worktree;set up a worktree;isolated workspace;separate workspace;isolated copy of the repo;separate working copy;separate working directory;create a worktree
superpowers|verification-before-completion|use when about to claim work is complete, fixed, or passing, before|verify before claiming done;claim it is done;claim it is fixed;run the verification;evidence before claims;claim work is complete;verification commands;fresh verification evidence;before claiming;completion claims;success claims
superpowers|writing-plans|use when you have a spec or requirements for a multi-step task,|write an implementation plan;implementation plan;plan before touching code;multi step plan
superpowers|writing-skills|use when creating new skills, editing existing skills, or verifying skills work|write a skill;create a new skill;edit this skill;test the skill
anthropics|algorithmic-art|creating algorithmic art using p5.js with seeded randomness and interactive parameter exploration.|generative art;algorithmic art;flow field;particle system;p5js
anthropics|brand-guidelines|applies anthropic's official brand colors and typography to any sort of artifact|anthropic brand;brand colors;brand guidelines
anthropics|canvas-design|create beautiful visual art in .png and .pdf documents using design philosophy.|design a poster;create a poster;static visual design
anthropics|claude-api|reference for the claude api / anthropic sdk — model ids, pricing,|anthropic sdk;claude api;prompt caching;anthropic api
anthropics|doc-coauthoring|guide users through a structured workflow for co-authoring documentation. use when user|co author a doc;write a proposal;coauthor documentation;write a design doc;draft a proposal;technical spec
anthropics|docx|use this skill whenever the user wants to create, read, edit, or|word document;word doc;docx
anthropics|frontend-design|guidance for distinctive, intentional visual design when building new ui or reshaping|distinctive visual design;aesthetic direction;looks generic
anthropics|internal-comms|a set of resources to help me write all kinds of internal|status report;leadership update;company newsletter;internal communications;incident report;3p update
anthropics|mcp-builder|guide for creating high-quality mcp (model context protocol) servers that enable llms|mcp server;build an mcp server;model context protocol;fastmcp
anthropics|pdf|use this skill whenever the user wants to do anything with pdf|merge pdfs;split the pdf;pdf form;extract text from pdf;ocr
anthropics|pptx|use this skill any time a .pptx file is involved in any|slide deck;pitch deck;presentation slides;pptx;powerpoint presentation
anthropics|skill-creator|create new skills, modify and improve existing skills, and measure skill performance.|create a skill;improve this skill;skill description;run evals on the skill;skill triggering
anthropics|slack-gif-creator|knowledge and utilities for creating animated gifs optimized for slack. provides constraints,|gif for slack;animated gif;slack gif
anthropics|theme-factory|toolkit for styling artifacts with a theme. these artifacts can be slides,|
anthropics|web-artifacts-builder|suite of tools for creating elaborate, multi-component claude.ai html artifacts using modern|claude ai artifact;html artifact;shadcn
anthropics|webapp-testing|toolkit for interacting with and testing local web applications using playwright. supports|playwright;test the local web app;browser screenshots;browser logs
anthropics|xlsx|use this skill any time a spreadsheet file is the primary input|spreadsheet file;new spreadsheet;xlsx;messy tabular data
trailofbits|address-sanitizer|addresssanitizer detects memory errors during fuzzing. use when fuzzing c/c++ code to|
trailofbits|aflpp|afl++ is a fork of afl with better fuzzing performance and advanced|
trailofbits|agentic-actions-auditor|audits github actions workflows for security vulnerabilities in ai agent integrations including|
trailofbits|algorand-vulnerability-scanner|scans algorand smart contracts for 11 common vulnerabilities including rekeying attacks, unchecked|
trailofbits|atheris|atheris is a coverage-guided python fuzzer based on libfuzzer. use for fuzzing|
trailofbits|audit-augmentation|augments trailmark code graphs with external audit findings from sarif static analysis|
trailofbits|audit-context-building|understand a codebase before looking for bugs in it - what each|
trailofbits|audit-prep-assistant|prepares codebases for security review using trail of bits' checklist. helps set|
trailofbits|burpsuite-project-parser|searches and explores burp suite project files (.burp) from the command line.|
trailofbits|c-review|performs comprehensive c/c++ security review for memory corruption, integer overflows, race conditions,|
trailofbits|cairo-vulnerability-scanner|scans cairo/starknet smart contracts for 6 critical vulnerabilities including felt252 arithmetic overflow,|
trailofbits|cargo-fuzz|cargo-fuzz is the de facto fuzzing tool for rust projects using cargo.|
trailofbits|chrome-mcp-troubleshooting|diagnose and fix claude in chrome mcp extension connectivity issues. use when|Browser extension is not connected
trailofbits|code-maturity-assessor|systematic code maturity assessment using trail of bits' 9-category framework. analyzes codebase|
trailofbits|codeql|scans a codebase for security vulnerabilities using codeql's interprocedural data flow and|run codeql;codeql scan;build codeql database;SAST scan;taint analysis;dataflow analysis;find vulnerabilities in this repo
trailofbits|constant-time-analysis|detects timing side-channel vulnerabilities in cryptographic code. use when implementing or reviewing|
trailofbits|constant-time-testing|constant-time testing detects timing side channels in cryptographic code. use when auditing|
trailofbits|cosmos-vulnerability-scanner|scans cosmos sdk blockchain modules and cosmwasm contracts for consensus-critical vulnerabilities —|
trailofbits|coverage-analysis|coverage analysis measures code exercised during fuzzing. use when assessing harness effectiveness|
trailofbits|crypto-protocol-diagram|extracts protocol message flow from source code, rfcs, academic papers, pseudocode, informal|
trailofbits|devcontainer-setup|creates devcontainers with claude code, language-specific tooling (python/node/rust/go), and persistent volumes. use|
trailofbits|diagramming-code|generates mermaid diagrams from trailmark code graphs. produces call graphs, class hierarchies,|
trailofbits|differential-review|performs security-focused differential review of code changes (prs, commits, diffs). adapts analysis|security review of the diff;security review of this pr
trailofbits|dimensional-analysis|annotates codebases with dimensional analysis comments documenting units, dimensions, and decimal scaling.|
trailofbits|dwarf-expert|analyzes dwarf debug information in compiled binaries. use when inspecting .debug_* sections,|
trailofbits|entry-point-analyzer|analyzes smart contract codebases to identify state-changing entry points for security auditing.|
trailofbits|firebase-apk-scanner|scans android apks for firebase security misconfigurations including open databases, storage buckets,|
trailofbits|fp-check|systematically verifies suspected security bugs to eliminate false positives, producing a true|true positive
trailofbits|fuzzing-dictionary|fuzzing dictionaries guide fuzzers with domain-specific tokens. use when fuzzing parsers, protocols,|
trailofbits|fuzzing-obstacles|techniques for patching code to overcome fuzzing obstacles. use when checksums, global|
trailofbits|genotoxic|graph-informed mutation testing triage. parses codebases with trailmark, runs mutation testing and|
trailofbits|git-cleanup|safely analyzes and cleans up local git branches and worktrees by categorizing|
trailofbits|github-triage|triages a repository's open github issues and pull requests via the gh|
trailofbits|goal-prompt|drafts copy-paste-ready /goal commands for goal mode in claude code and codex.|
trailofbits|graph-evolution|compares trailmark code graphs at two source code snapshots (git commits, tags,|
trailofbits|guidelines-advisor|smart contract development advisor based on trail of bits' best practices. analyzes|
trailofbits|harness-writing|techniques for writing effective fuzzing harnesses across languages. use when creating new|
trailofbits|interpreting-culture-index|interprets culture index (ci) surveys, behavioral profiles, and personality assessment data. supports|
trailofbits|libafl|libafl is a modular fuzzing library for building custom fuzzers. use for|
trailofbits|libfuzzer|coverage-guided fuzzer built into llvm for c/c++ projects. use for fuzzing c/c++|
trailofbits|mermaid-to-proverif|translates mermaid sequencediagrams describing cryptographic protocols into proverif formal verification models (.pv|
trailofbits|modern-python|configures python projects with modern tooling (uv, ruff, ty). use when creating|
trailofbits|mutation-testing|configures mewt or muton mutation testing campaigns — scopes targets, tunes timeouts,|
trailofbits|open-sourcing|this skill should be used when the user asks to "open source|open source this project;make this repo public;check open-source readiness;choose a license for this project;set up release automation
trailofbits|ossfuzz|oss-fuzz provides free continuous fuzzing for open source projects. use when setting|
trailofbits|property-based-testing|writes, reviews, and debugs property-based tests — hypothesis, fast-check, proptest, jqwik, rapid,|
trailofbits|rust-review|performs comprehensive rust security review for safe/unsafe boundary issues, memory safety in|
trailofbits|ruzzy|ruzzy is a coverage-guided ruby fuzzer by trail of bits. use for|
trailofbits|sarif-parsing|parses and processes sarif files from static analysis tools like codeql, semgrep,|parse sarif;read scan results;aggregate findings;deduplicate alerts;process sarif output
trailofbits|second-opinion|runs external llm code reviews (openai codex or google gemini cli) on|
trailofbits|secure-workflow-guide|guides through trail of bits' 5-step secure development workflow. runs slither scans,|
trailofbits|semgrep|runs a semgrep security scan over a codebase: detects languages, selects rulesets,|
trailofbits|semgrep-rule-creator|creates custom semgrep rules for detecting security vulnerabilities, bug patterns, and code|
trailofbits|semgrep-rule-variant-creator|creates language variants of existing semgrep rules. use when porting a semgrep|
trailofbits|sharp-edges|identifies error-prone apis, dangerous configurations, and footgun designs that enable security mistakes.|secure by default;pit of success
trailofbits|skill-improver|iteratively reviews and fixes claude code skill quality issues until they meet|fix my skill;improve skill quality;skill improvement loop
trailofbits|slicing-code-context|selects bounded, graph-informed source slices with trailmark and delegates focused code analysis|
trailofbits|solana-vulnerability-scanner|scans solana programs for 6 critical vulnerabilities including arbitrary cpi, improper pda|
trailofbits|spec-to-code-compliance|check code against the documentation that specifies it - which requirements hold,|
trailofbits|substrate-vulnerability-scanner|scans substrate/polkadot pallets for 7 critical vulnerabilities including arithmetic overflow, panic dos,|
trailofbits|supply-chain-risk-auditor|audits a project's dependencies for supply-chain risk: version-matched advisories for direct dependencies|
trailofbits|testing-handbook-generator|meta-skill that analyzes the trail of bits testing handbook (appsec.guide) and generates|
trailofbits|token-integration-analyzer|token integration and implementation analyzer based on trail of bits' token integration|
trailofbits|ton-vulnerability-scanner|scans ton (the open network) smart contracts for 3 critical vulnerabilities including|
trailofbits|trailmark|builds and queries multi-language source and binary code graphs for security analysis.|
trailofbits|trailmark-finding-triage|performs graph-assisted triage of a single security finding, sarif result, weaudit annotation,|
trailofbits|trailmark-review-gate|runs a trailmark structural review gate over a branch, pull request, fix|
trailofbits|trailmark-structural|runs full trailmark structural analysis by building a graph, running|
trailofbits|trailmark-summary|runs a trailmark summary analysis on a codebase. returns auto-detected languages, entry|
trailofbits|trailmark-variant-neighborhood|expands one confirmed or suspected vulnerability into a trailmark graph neighborhood of|
trailofbits|variant-analysis|hunts for the other instances of a bug already found — the|the same mistake;are there others like this?;is this the same bug?;other instances of this bug;variants of this bug;where else it occurs
trailofbits|vector-forge|mutation-driven test vector generation. finds implementations of a cryptographic algorithm or protocol,|
trailofbits|vulnerability-triage-brocards|this skill should be used when the user asks to "triage a|triage a vulnerability report;assess a CVE;evaluate a bug bounty submission;decide if a finding is valid;dismiss a vulnerability;should we fix this CVE;prioritize a vulnerability report
trailofbits|writing-lean-proofs|writes and reviews structured lean 4 proofs and designs lean libraries following|
trailofbits|wycheproof|wycheproof provides test vectors for validating cryptographic implementations. use when testing crypto|
trailofbits|yara-rule-authoring|guides authoring of high-quality yara-x detection rules for malware identification. use when|
trailofbits|zeroize-audit|detects missing zeroization of sensitive data in source code and identifies zeroization|
wshobson|accessibility-compliance|implement wcag 2.2 compliant interfaces with mobile accessibility, inclusive design patterns, and|
wshobson|airflow-dag-patterns|build production apache airflow dags with best practices for operators, sensors, testing,|
wshobson|angular-migration|migrate from angularjs to angular using hybrid mode, incremental component rewriting, and|
wshobson|anti-reversing-techniques|understand anti-reversing, obfuscation, and protection techniques encountered during software analysis. use this|
wshobson|architecture-decision-records|write and maintain architecture decision records (adrs) following best practices for technical|architecture decision record;write an adr
wshobson|attack-tree-construction|build comprehensive attack trees to visualize threat paths. use when mapping attack|
wshobson|auth-implementation-patterns|master authentication and authorization patterns including jwt, oauth2, session management, and rbac|
wshobson|avoid-ai-writing|audit and rewrite prose so it stops reading as machine-generated. use this|
wshobson|backtesting-frameworks|build robust backtesting systems for trading strategies with proper handling of look-ahead|
wshobson|bash-defensive-patterns|master defensive bash programming techniques for production-grade scripts. use when writing robust|
wshobson|bats-testing-patterns|master bash automated testing system (bats) for comprehensive shell script testing. use|
wshobson|bazel-build-optimization|optimize bazel builds for large-scale monorepos. use when configuring bazel, implementing remote|
wshobson|billing-automation|build automated billing systems for recurring payments, invoicing, subscription lifecycle, and dunning|
wshobson|binary-analysis-patterns|master binary analysis patterns including disassembly, decompilation, control flow analysis, and code|
wshobson|block-no-verify-hook|configure a pretooluse hook to prevent ai agents from skipping git pre-commit|
wshobson|brand-landingpage|brand-first landing page designer — runs a brand-identity interview (colors, typography, shape|
wshobson|changelog-automation|automate changelog generation from commits, prs, and releases following keep a changelog|
wshobson|checkpoint-promotion|gate fine-tuned checkpoints with drift budgets, paired comparison, and forgetting checks before|
wshobson|competitive-landscape|analyze competition, identify differentiation opportunities, and develop winning market positioning strategies using|
wshobson|cost-optimization|optimize cloud costs across aws, azure, gcp, and oci through resource rightsizing,|
wshobson|cqrs-implementation|implement command query responsibility segregation for scalable architectures. use when separating read|
wshobson|data-quality-frameworks|implement data quality validation with great expectations, dbt tests, and data contracts.|
wshobson|data-storytelling|transform data into compelling narratives using visualization, context, and persuasive structure. use|
wshobson|database-migration|execute database migrations across orms and platforms with zero-downtime strategies, data transformation,|
wshobson|dataset-curation|prepare, format, and validate datasets for supervised fine-tuning and preference training. use|
wshobson|dbt-transformation-patterns|master dbt (data build tool) for analytics engineering with model organization, testing,|
wshobson|defi-protocol-templates|implement defi protocols with production-ready templates for staking, amms, governance, and flash|
wshobson|deployment-pipeline-design|design multi-stage ci/cd pipelines with approval gates, security checks, and deployment orchestration.|
wshobson|distributed-tracing|implement distributed tracing with jaeger and tempo to track requests across microservices|
wshobson|embedding-strategies|select and optimize embedding models for semantic search and rag applications. use|
wshobson|employment-contract-templates|create employment contracts, offer letters, and hr policy documents following legal best|
wshobson|eval-harness-first|build the evaluation harness that gates every fine-tuning run — golden sets,|
wshobson|event-store-design|design and implement event stores for event-sourced systems. use when building event|
wshobson|fastapi-templates|create production-ready fastapi projects with async patterns, dependency injection, and comprehensive error|
wshobson|file-conversion|convert files between formats — pdf to word, heic to jpg, mp4|
wshobson|finetuning-method-selection|decide whether to fine-tune at all, and route to the right method|
wshobson|gdpr-data-handling|implement gdpr-compliant data handling with consent management, data subject rights, and privacy|
wshobson|github-actions-templates|create production-ready github actions workflows for automated testing, building, and deploying applications.|
wshobson|gitlab-ci-patterns|build gitlab ci/cd pipelines with multi-stage workflows, caching, and distributed runners for|
wshobson|gitops-workflow|implement gitops workflows with argocd and flux for automated, declarative kubernetes deployments|
wshobson|go-concurrency-patterns|master go concurrency with goroutines, channels, sync primitives, and context. use when|
wshobson|godot-gdscript-patterns|master godot 4 gdscript patterns including signals, scenes, state machines, and optimization.|
wshobson|grafana-dashboards|create and manage production grafana dashboards for real-time visualization of system and|
wshobson|grpo-rlvr-training|train reasoning and verifiable-task behavior with grpo and reinforcement learning from verifiable|
wshobson|hads|use when writing technical documentation that needs to be readable by both|
wshobson|helm-chart-scaffolding|design, organize, and manage helm charts for templating and packaging kubernetes applications|
wshobson|hermes-tweet|install and operate hermes tweet, a hermes agent plugin for x/twitter research,|
wshobson|hybrid-cloud-networking|configure secure, high-performance connectivity between on-premises infrastructure and cloud platforms using vpn|
wshobson|hybrid-search-implementation|combine vector and keyword search for improved retrieval. use when implementing rag|
wshobson|incident-runbook-templates|create structured incident response runbooks with step-by-step procedures, escalation paths, and recovery|
wshobson|istio-traffic-management|configure istio traffic management including routing, load balancing, circuit breakers, and canary|
wshobson|k8s-manifest-generator|create production-ready kubernetes manifests for deployments, services, configmaps, and secrets following best|
wshobson|k8s-security-policies|implement kubernetes security policies including networkpolicy, podsecuritypolicy, and rbac for production-grade security.|
wshobson|kpi-dashboard-design|design effective kpi dashboards with metrics selection, visualization best practices, and real-time|
wshobson|langchain-architecture|design llm applications using langchain 1.x and langgraph for agents, memory, and|
wshobson|linkerd-patterns|implement linkerd service mesh patterns for lightweight, security-focused service mesh deployments. use|
wshobson|llm-evaluation|implement comprehensive evaluation strategies for llm applications using automated metrics, human feedback,|
wshobson|lora-qlora-recipes|configure lora and qlora supervised fine-tuning with current best-practice hyperparameters. use when|
wshobson|market-sizing-analysis|calculate tam/sam/som for market opportunities using top-down, bottom-up, and value theory methodologies.|
wshobson|memory-forensics|master memory forensics techniques including memory acquisition, process analysis, and artifact extraction|
wshobson|ml-pipeline-workflow|build end-to-end mlops pipelines from data preparation through model training, validation, and|
wshobson|mobile-android-design|master material design 3 and jetpack compose patterns for building native android|
wshobson|mobile-ios-design|master ios human interface guidelines and swiftui patterns for building native ios|
wshobson|monorepo-management|master monorepo management with turborepo, nx, and pnpm workspaces to build efficient,|
wshobson|mtls-configuration|configure mutual tls (mtls) for zero-trust service-to-service communication. use when implementing zero-trust|
wshobson|multi-cloud-architecture|design multi-cloud architectures using a decision framework to select and integrate services|
wshobson|nextjs-app-router-patterns|master next.js 14+ app router with server components, streaming, parallel routes, and|
wshobson|nft-standards|implement nft standards (erc-721, erc-1155) with proper metadata handling, minting strategies, and|
wshobson|nx-workspace-patterns|configure and optimize nx monorepo workspaces. use when setting up nx, configuring|
wshobson|on-call-handoff-patterns|master on-call shift handoffs with context transfer, escalation procedures, and documentation. use|
wshobson|openapi-spec-generation|generate and maintain openapi 3.1 specifications from code, design-first specs, and validation|
wshobson|paypal-integration|integrate paypal payment processing with support for express checkout, subscriptions, and refund|
wshobson|pci-compliance|implement pci dss compliance requirements for secure handling of payment card data|
wshobson|postmortem-writing|write effective blameless postmortems with root cause analysis, timelines, and action items.|
wshobson|pptx-deck-context|use when preparing the narrative, sources, and design context for a new|
wshobson|pptx-quality-gates|use when validating or repairing an editable pptx deck for geometry, accessibility,|
wshobson|pptx-reference-deck-analysis|use when analyzing a reference pptx for read-only structure, theme, typography, layout|
wshobson|pptx-slide-specification|use when authoring or repairing a coordinate-explicit json specification for an editable|
wshobson|pptx-visual-assets|use when selecting and placing approved supporting icons, images, svgs, diagrams, or|
wshobson|preference-optimization|align a fine-tuned model with preference data using dpo, orpo, kto, or|
wshobson|projection-patterns|build read models and projections from event streams. use when implementing cqrs|
wshobson|prometheus-configuration|set up prometheus for comprehensive metric collection, storage, and monitoring of infrastructure|
wshobson|prompt-engineering-patterns|this skill should be used when the user asks to "optimize a|optimize a prompt;improve prompt performance;design a prompt template;write better prompts;debug prompt issues;use chain-of-thought;structured prompting;few-shot prompting
wshobson|protect-mcp-setup|configure cedar policy enforcement and ed25519 signed receipts for claude code tool|
wshobson|protocol-reverse-engineering|master network protocol reverse engineering including packet analysis, protocol dissection, and custom|
wshobson|quantized-export|export a promoted fine-tuned model in the right deployment format — merged|
wshobson|rag-implementation|build retrieval-augmented generation (rag) systems for llm applications with vector databases and|
wshobson|react-modernization|upgrade react applications to latest versions, migrate from class components to hooks,|
wshobson|react-native-architecture|build production react native apps with expo, navigation, native modules, offline sync,|
wshobson|react-native-design|master react native styling, navigation, and reanimated animations for cross-platform mobile development.|
wshobson|recsys-pipeline-architect|design composable recommendation, ranking, and feed pipelines using the six-stage source→hydrator→filter→scorer→selector→sideeffect framework|
wshobson|review-agent-setup|configure human-in-the-loop gating for ai agent review actions in claude code. use|
wshobson|risk-metrics-calculation|calculate portfolio risk metrics including var, cvar, sharpe, sortino, and drawdown analysis.|
wshobson|rust-async-patterns|master rust async programming with tokio, async traits, error handling, and concurrent|
wshobson|saga-orchestration|implement saga patterns for distributed transactions and cross-aggregate workflows. use this skill|
wshobson|sast-configuration|configure static application security testing (sast) tools for automated vulnerability detection in|
wshobson|screen-reader-testing|test web applications with screen readers including voiceover, nvda, and jaws. use|
wshobson|secrets-management|implement secure secrets management for ci/cd pipelines using vault, aws secrets manager,|
wshobson|security-requirement-extraction|derive security requirements from threat models and business context. use when translating|
wshobson|service-mesh-observability|implement comprehensive observability for service meshes including distributed tracing, metrics, and visualization.|
wshobson|shellcheck-configuration|master shellcheck static analysis configuration and usage for shell script quality. use|
wshobson|signed-audit-trails-recipe|step-by-step cookbook for setting up cryptographically signed audit trails on claude code|
wshobson|similarity-search-patterns|implement efficient similarity search with vector databases. use when building semantic search,|
wshobson|slo-implementation|define and implement service level indicators (slis) and service level objectives (slos)|
wshobson|social-publishing|schedule and publish social media posts across 13 platforms (x, linkedin, instagram,|
wshobson|solidity-security|master smart contract security best practices to prevent common vulnerabilities and implement|
wshobson|spark-environment-setup|set up a working ml training/inference environment on nvidia dgx spark (gb10,|
wshobson|spark-memory-thermal-ops|manage unified memory and thermals during long-running ml jobs on nvidia dgx|
wshobson|spark-optimization|optimize apache spark jobs with partitioning, caching, shuffle optimization, and memory tuning.|
wshobson|spark-training-gotchas|preflight and diagnose the ten known failure modes for ml training on|
wshobson|startup-financial-modeling|build comprehensive 3-5 year financial models with revenue projections, cost structures, cash|
wshobson|startup-metrics-framework|track, calculate, and optimize key performance metrics for saas, marketplace, consumer, and|
wshobson|stride-analysis-patterns|apply stride methodology to systematically identify threats. use when analyzing system security,|
wshobson|stripe-integration|implement stripe payment processing for robust, pci-compliant payment flows including checkout, subscriptions,|
wshobson|tailwind-design-system|build scalable design systems with tailwind css v4, design tokens, component libraries,|
wshobson|team-composition-analysis|design optimal team structures, hiring plans, compensation strategies, and equity allocation for|
wshobson|temporal-python-testing|test temporal workflows with pytest, time-skipping, and mocking strategies. covers unit testing,|
wshobson|terraform-module-library|build reusable terraform modules for aws, azure, gcp, and oci infrastructure following|
wshobson|threat-mitigation-mapping|map identified threats to appropriate security controls and mitigations. use when prioritizing|
wshobson|trace-to-training-data|convert evaluation traces and production logs into sft examples and preference pairs.|
wshobson|turborepo-caching|configure turborepo for efficient monorepo builds with local and remote caching. use|
wshobson|unity-ecs-patterns|master unity ecs (entity component system) with dots, jobs, and burst for|
wshobson|uv-package-manager|master the uv package manager for fast python dependency management, virtual environments,|
wshobson|vector-index-tuning|optimize vector index performance for latency, recall, and memory. use when tuning|
wshobson|vision-sft|fine-tune vision-language models (vlms) with supervised learning on image+text data. use when|
wshobson|wcag-audit-patterns|conduct wcag 2.2 accessibility audits with automated testing, manual verification, and remediation|
wshobson|web3-testing|test smart contracts comprehensively using hardhat and foundry with unit tests, integration|
wshobson|workflow-orchestration-patterns|design durable workflows with temporal for distributed systems. covers workflow vs activity|
`;
