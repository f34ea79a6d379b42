/**
 * The reviewed entries of the built-in packs (see `packs.ts`), one line each:
 * `pack|skill name|opening words of its description|trigger;trigger;…`. Written from each skill's
 * own text, never from the prompts routing is measured on.
 *
 * @module
 */

/** The entries, one per line. */
export const PACK_LINES: string = `
superpowers|brainstorming|you must use this before any creative work|brainstorm ideas;brainstorm approaches;brainstorm the design;explore requirements and design
superpowers|dispatching-parallel-agents|use when facing 2+ independent tasks that can|dispatch parallel agents;independent tasks in parallel;multiple independent failures
superpowers|executing-plans|use when you have a written implementation plan|execute the plan;execute this implementation plan;carry out the plan;implement this plan
superpowers|finishing-a-development-branch|use when implementation is complete, all tests pass,|finish this branch;finish the development branch;decide how to integrate the work;integrate this branch
superpowers|receiving-code-review|use when receiving code review feedback, before implementing|code review feedback;review feedback;address review comments;respond to the review
superpowers|requesting-code-review|use when completing tasks, implementing major features, or|request a code review;review my work before merging;verify work meets requirements
superpowers|subagent-driven-development|use when executing implementation plans with independent tasks|subagent per task;execute the plan with subagents;subagent driven development
superpowers|systematic-debugging|use when encountering any bug, test failure, or|debug this;fix this bug;why is this broken;root cause analysis;investigate this error;find the root cause
superpowers|test-driven-development|use when implementing any feature or bugfix, before|test driven development;tdd;write the failing test first;test first;red green refactor
superpowers|using-git-worktrees|use when starting feature work that needs isolation|git worktree;set up a worktree;isolated workspace;create a worktree
superpowers|verification-before-completion|use when about to claim work is complete,|verify before claiming done;run the verification;evidence before claims;before you say its done
superpowers|writing-plans|use when you have a spec or requirements|write an implementation plan;implementation plan;plan before touching code;multi step plan
superpowers|writing-skills|use when creating new skills, editing existing skills,|write a skill;create a new skill;edit this skill;test the skill
anthropics|algorithmic-art|creating algorithmic art using p5.js with seeded randomness|generative art;algorithmic art;flow field;particle system;p5js
anthropics|brand-guidelines|applies anthropic's official brand colors and typography to|anthropic brand;brand colors;brand guidelines
anthropics|canvas-design|create beautiful visual art in .png and .pdf|design a poster;create a poster;static visual design
anthropics|claude-api|reference for the claude api / anthropic sdk|anthropic sdk;claude api;prompt caching;anthropic api
anthropics|doc-coauthoring|guide users through a structured workflow for co-authoring|co author a doc;coauthor documentation;write a design doc;draft a proposal;technical spec
anthropics|docx|use this skill whenever the user wants to|word document;word doc;docx
anthropics|frontend-design|guidance for distinctive, intentional visual design when building|distinctive visual design;aesthetic direction;looks generic
anthropics|internal-comms|a set of resources to help me write|status report;leadership update;company newsletter;internal communications;incident report;3p update
anthropics|mcp-builder|guide for creating high-quality mcp (model context protocol)|mcp server;build an mcp server;model context protocol;fastmcp
anthropics|pdf|use this skill whenever the user wants to|merge pdfs;split the pdf;pdf form;extract text from pdf;ocr
anthropics|pptx|use this skill any time a .pptx file|slide deck;pitch deck;presentation slides;pptx;powerpoint
anthropics|skill-creator|create new skills, modify and improve existing skills,|create a skill;improve this skill;skill description;run evals on the skill;skill triggering
anthropics|slack-gif-creator|knowledge and utilities for creating animated gifs optimized|gif for slack;animated gif;slack gif
anthropics|theme-factory|toolkit for styling artifacts with a theme. these|
anthropics|web-artifacts-builder|suite of tools for creating elaborate, multi-component claude.ai|claude ai artifact;html artifact;shadcn
anthropics|webapp-testing|toolkit for interacting with and testing local web|playwright;test the local web app;browser screenshots;browser logs
anthropics|xlsx|use this skill any time a spreadsheet file|spreadsheet;xlsx
trailofbits|address-sanitizer|addresssanitizer detects memory errors during fuzzing. use when|
trailofbits|aflpp|afl++ is a fork of afl with better|
trailofbits|agentic-actions-auditor|audits github actions workflows for security vulnerabilities in|
trailofbits|algorand-vulnerability-scanner|scans algorand smart contracts for 11 common vulnerabilities|
trailofbits|atheris|atheris is a coverage-guided python fuzzer based on|
trailofbits|audit-augmentation|augments trailmark code graphs with external audit findings|
trailofbits|audit-context-building|understand a codebase before looking for bugs in|
trailofbits|audit-prep-assistant|prepares codebases for security review using trail of|
trailofbits|burpsuite-project-parser|searches and explores burp suite project files (.burp)|
trailofbits|c-review|performs comprehensive c/c++ security review for memory corruption,|
trailofbits|cairo-vulnerability-scanner|scans cairo/starknet smart contracts for 6 critical vulnerabilities|
trailofbits|cargo-fuzz|cargo-fuzz is the de facto fuzzing tool for|
trailofbits|chrome-mcp-troubleshooting|diagnose and fix claude in chrome mcp extension|Browser extension is not connected
trailofbits|code-maturity-assessor|systematic code maturity assessment using trail of bits'|
trailofbits|codeql|scans a codebase for security vulnerabilities using codeql's|run codeql;codeql scan;build codeql database;SAST scan;taint analysis;dataflow analysis;find vulnerabilities in this repo
trailofbits|constant-time-analysis|detects timing side-channel vulnerabilities in cryptographic code. use|
trailofbits|constant-time-testing|constant-time testing detects timing side channels in cryptographic|
trailofbits|cosmos-vulnerability-scanner|scans cosmos sdk blockchain modules and cosmwasm contracts|
trailofbits|coverage-analysis|coverage analysis measures code exercised during fuzzing. use|
trailofbits|crypto-protocol-diagram|extracts protocol message flow from source code, rfcs,|
trailofbits|devcontainer-setup|creates devcontainers with claude code, language-specific tooling (python/node/rust/go),|
trailofbits|diagramming-code|generates mermaid diagrams from trailmark code graphs. produces|
trailofbits|differential-review|performs security-focused differential review of code changes (prs,|
trailofbits|dimensional-analysis|annotates codebases with dimensional analysis comments documenting units,|
trailofbits|dwarf-expert|analyzes dwarf debug information in compiled binaries. use|
trailofbits|entry-point-analyzer|analyzes smart contract codebases to identify state-changing entry|
trailofbits|firebase-apk-scanner|scans android apks for firebase security misconfigurations including|
trailofbits|fp-check|systematically verifies suspected security bugs to eliminate false|
trailofbits|fuzzing-dictionary|fuzzing dictionaries guide fuzzers with domain-specific tokens. use|
trailofbits|fuzzing-obstacles|techniques for patching code to overcome fuzzing obstacles.|
trailofbits|genotoxic|graph-informed mutation testing triage. parses codebases with trailmark,|
trailofbits|git-cleanup|safely analyzes and cleans up local git branches|
trailofbits|github-triage|triages a repository's open github issues and pull|
trailofbits|goal-prompt|drafts copy-paste-ready /goal commands for goal mode in|
trailofbits|graph-evolution|compares trailmark code graphs at two source code|
trailofbits|guidelines-advisor|smart contract development advisor based on trail of|
trailofbits|harness-writing|techniques for writing effective fuzzing harnesses across languages.|
trailofbits|interpreting-culture-index|interprets culture index (ci) surveys, behavioral profiles, and|
trailofbits|libafl|libafl is a modular fuzzing library for building|
trailofbits|libfuzzer|coverage-guided fuzzer built into llvm for c/c++ projects.|
trailofbits|mermaid-to-proverif|translates mermaid sequencediagrams describing cryptographic protocols into proverif|
trailofbits|modern-python|configures python projects with modern tooling (uv, ruff,|
trailofbits|mutation-testing|configures mewt or muton mutation testing campaigns —|
trailofbits|open-sourcing|this skill should be used when the user|open source this project;make this repo public;check open-source readiness;choose a license for this project;set up release automation
trailofbits|ossfuzz|oss-fuzz provides free continuous fuzzing for open source|
trailofbits|property-based-testing|writes, reviews, and debugs property-based tests — hypothesis,|
trailofbits|rust-review|performs comprehensive rust security review for safe/unsafe boundary|
trailofbits|ruzzy|ruzzy is a coverage-guided ruby fuzzer by trail|
trailofbits|sarif-parsing|parses and processes sarif files from static analysis|parse sarif;read scan results;aggregate findings;deduplicate alerts;process sarif output
trailofbits|second-opinion|runs external llm code reviews (openai codex or|
trailofbits|secure-workflow-guide|guides through trail of bits' 5-step secure development|
trailofbits|semgrep|runs a semgrep security scan over a codebase:|
trailofbits|semgrep-rule-creator|creates custom semgrep rules for detecting security vulnerabilities,|
trailofbits|semgrep-rule-variant-creator|creates language variants of existing semgrep rules. use|
trailofbits|sharp-edges|identifies error-prone apis, dangerous configurations, and footgun designs|secure by default;pit of success
trailofbits|skill-improver|iteratively reviews and fixes claude code skill quality|fix my skill;improve skill quality;skill improvement loop
trailofbits|slicing-code-context|selects bounded, graph-informed source slices with trailmark and|
trailofbits|solana-vulnerability-scanner|scans solana programs for 6 critical vulnerabilities including|
trailofbits|spec-to-code-compliance|check code against the documentation that specifies it|
trailofbits|substrate-vulnerability-scanner|scans substrate/polkadot pallets for 7 critical vulnerabilities including|
trailofbits|supply-chain-risk-auditor|audits a project's dependencies for supply-chain risk: version-matched|
trailofbits|testing-handbook-generator|meta-skill that analyzes the trail of bits testing|
trailofbits|token-integration-analyzer|token integration and implementation analyzer based on trail|
trailofbits|ton-vulnerability-scanner|scans ton (the open network) smart contracts for|
trailofbits|trailmark|builds and queries multi-language source and binary code|
trailofbits|trailmark-finding-triage|performs graph-assisted triage of a single security finding,|
trailofbits|trailmark-review-gate|runs a trailmark structural review gate over a|
trailofbits|trailmark-structural|runs full trailmark structural analysis by building a|
trailofbits|trailmark-summary|runs a trailmark summary analysis on a codebase.|
trailofbits|trailmark-variant-neighborhood|expands one confirmed or suspected vulnerability into a|
trailofbits|variant-analysis|hunts for the other instances of a bug|are there others like this?;is this the same bug?
trailofbits|vector-forge|mutation-driven test vector generation. finds implementations of a|
trailofbits|vulnerability-triage-brocards|this skill should be used when the user|triage a vulnerability report;assess a CVE;evaluate a bug bounty submission;decide if a finding is valid;dismiss a vulnerability;should we fix this CVE;prioritize a vulnerability report
trailofbits|writing-lean-proofs|writes and reviews structured lean 4 proofs and|
trailofbits|wycheproof|wycheproof provides test vectors for validating cryptographic implementations.|
trailofbits|yara-rule-authoring|guides authoring of high-quality yara-x detection rules for|
trailofbits|zeroize-audit|detects missing zeroization of sensitive data in source|
wshobson|accessibility-compliance|implement wcag 2.2 compliant interfaces with mobile accessibility,|
wshobson|airflow-dag-patterns|build production apache airflow dags with best practices|
wshobson|angular-migration|migrate from angularjs to angular using hybrid mode,|
wshobson|anti-reversing-techniques|understand anti-reversing, obfuscation, and protection techniques encountered during|
wshobson|architecture-decision-records|write and maintain architecture decision records (adrs) following|
wshobson|attack-tree-construction|build comprehensive attack trees to visualize threat paths.|
wshobson|auth-implementation-patterns|master authentication and authorization patterns including jwt, oauth2,|
wshobson|avoid-ai-writing|audit and rewrite prose so it stops reading|
wshobson|backtesting-frameworks|build robust backtesting systems for trading strategies with|
wshobson|bash-defensive-patterns|master defensive bash programming techniques for production-grade scripts.|
wshobson|bats-testing-patterns|master bash automated testing system (bats) for comprehensive|
wshobson|bazel-build-optimization|optimize bazel builds for large-scale monorepos. use when|
wshobson|billing-automation|build automated billing systems for recurring payments, invoicing,|
wshobson|binary-analysis-patterns|master binary analysis patterns including disassembly, decompilation, control|
wshobson|block-no-verify-hook|configure a pretooluse hook to prevent ai agents|
wshobson|brand-landingpage|brand-first landing page designer — runs a brand-identity|
wshobson|changelog-automation|automate changelog generation from commits, prs, and releases|
wshobson|checkpoint-promotion|gate fine-tuned checkpoints with drift budgets, paired comparison,|
wshobson|competitive-landscape|analyze competition, identify differentiation opportunities, and develop winning|
wshobson|cost-optimization|optimize cloud costs across aws, azure, gcp, and|
wshobson|cqrs-implementation|implement command query responsibility segregation for scalable architectures.|
wshobson|data-quality-frameworks|implement data quality validation with great expectations, dbt|
wshobson|data-storytelling|transform data into compelling narratives using visualization, context,|
wshobson|database-migration|execute database migrations across orms and platforms with|
wshobson|dataset-curation|prepare, format, and validate datasets for supervised fine-tuning|
wshobson|dbt-transformation-patterns|master dbt (data build tool) for analytics engineering|
wshobson|defi-protocol-templates|implement defi protocols with production-ready templates for staking,|
wshobson|deployment-pipeline-design|design multi-stage ci/cd pipelines with approval gates, security|
wshobson|distributed-tracing|implement distributed tracing with jaeger and tempo to|
wshobson|embedding-strategies|select and optimize embedding models for semantic search|
wshobson|employment-contract-templates|create employment contracts, offer letters, and hr policy|
wshobson|eval-harness-first|build the evaluation harness that gates every fine-tuning|
wshobson|event-store-design|design and implement event stores for event-sourced systems.|
wshobson|fastapi-templates|create production-ready fastapi projects with async patterns, dependency|
wshobson|file-conversion|convert files between formats — pdf to word,|
wshobson|finetuning-method-selection|decide whether to fine-tune at all, and route|
wshobson|gdpr-data-handling|implement gdpr-compliant data handling with consent management, data|
wshobson|github-actions-templates|create production-ready github actions workflows for automated testing,|
wshobson|gitlab-ci-patterns|build gitlab ci/cd pipelines with multi-stage workflows, caching,|
wshobson|gitops-workflow|implement gitops workflows with argocd and flux for|
wshobson|go-concurrency-patterns|master go concurrency with goroutines, channels, sync primitives,|
wshobson|godot-gdscript-patterns|master godot 4 gdscript patterns including signals, scenes,|
wshobson|grafana-dashboards|create and manage production grafana dashboards for real-time|
wshobson|grpo-rlvr-training|train reasoning and verifiable-task behavior with grpo and|
wshobson|hads|use when writing technical documentation that needs to|
wshobson|helm-chart-scaffolding|design, organize, and manage helm charts for templating|
wshobson|hermes-tweet|install and operate hermes tweet, a hermes agent|
wshobson|hybrid-cloud-networking|configure secure, high-performance connectivity between on-premises infrastructure and|
wshobson|hybrid-search-implementation|combine vector and keyword search for improved retrieval.|
wshobson|incident-runbook-templates|create structured incident response runbooks with step-by-step procedures,|
wshobson|istio-traffic-management|configure istio traffic management including routing, load balancing,|
wshobson|k8s-manifest-generator|create production-ready kubernetes manifests for deployments, services, configmaps,|
wshobson|k8s-security-policies|implement kubernetes security policies including networkpolicy, podsecuritypolicy, and|
wshobson|kpi-dashboard-design|design effective kpi dashboards with metrics selection, visualization|
wshobson|langchain-architecture|design llm applications using langchain 1.x and langgraph|
wshobson|linkerd-patterns|implement linkerd service mesh patterns for lightweight, security-focused|
wshobson|llm-evaluation|implement comprehensive evaluation strategies for llm applications using|
wshobson|lora-qlora-recipes|configure lora and qlora supervised fine-tuning with current|
wshobson|market-sizing-analysis|calculate tam/sam/som for market opportunities using top-down, bottom-up,|
wshobson|memory-forensics|master memory forensics techniques including memory acquisition, process|
wshobson|ml-pipeline-workflow|build end-to-end mlops pipelines from data preparation through|
wshobson|mobile-android-design|master material design 3 and jetpack compose patterns|
wshobson|mobile-ios-design|master ios human interface guidelines and swiftui patterns|
wshobson|monorepo-management|master monorepo management with turborepo, nx, and pnpm|
wshobson|mtls-configuration|configure mutual tls (mtls) for zero-trust service-to-service communication.|
wshobson|multi-cloud-architecture|design multi-cloud architectures using a decision framework to|
wshobson|nextjs-app-router-patterns|master next.js 14+ app router with server components,|
wshobson|nft-standards|implement nft standards (erc-721, erc-1155) with proper metadata|
wshobson|nx-workspace-patterns|configure and optimize nx monorepo workspaces. use when|
wshobson|on-call-handoff-patterns|master on-call shift handoffs with context transfer, escalation|
wshobson|openapi-spec-generation|generate and maintain openapi 3.1 specifications from code,|
wshobson|paypal-integration|integrate paypal payment processing with support for express|
wshobson|pci-compliance|implement pci dss compliance requirements for secure handling|
wshobson|postmortem-writing|write effective blameless postmortems with root cause analysis,|
wshobson|pptx-deck-context|use when preparing the narrative, sources, and design|
wshobson|pptx-quality-gates|use when validating or repairing an editable pptx|
wshobson|pptx-reference-deck-analysis|use when analyzing a reference pptx for read-only|
wshobson|pptx-slide-specification|use when authoring or repairing a coordinate-explicit json|
wshobson|pptx-visual-assets|use when selecting and placing approved supporting icons,|
wshobson|preference-optimization|align a fine-tuned model with preference data using|
wshobson|projection-patterns|build read models and projections from event streams.|
wshobson|prometheus-configuration|set up prometheus for comprehensive metric collection, storage,|
wshobson|prompt-engineering-patterns|this skill should be used when the user|optimize a prompt;improve prompt performance;design a prompt template;write better prompts;debug prompt issues;use chain-of-thought;structured prompting;few-shot prompting
wshobson|protect-mcp-setup|configure cedar policy enforcement and ed25519 signed receipts|
wshobson|protocol-reverse-engineering|master network protocol reverse engineering including packet analysis,|
wshobson|quantized-export|export a promoted fine-tuned model in the right|
wshobson|rag-implementation|build retrieval-augmented generation (rag) systems for llm applications|
wshobson|react-modernization|upgrade react applications to latest versions, migrate from|
wshobson|react-native-architecture|build production react native apps with expo, navigation,|
wshobson|react-native-design|master react native styling, navigation, and reanimated animations|
wshobson|recsys-pipeline-architect|design composable recommendation, ranking, and feed pipelines using|
wshobson|review-agent-setup|configure human-in-the-loop gating for ai agent review actions|
wshobson|risk-metrics-calculation|calculate portfolio risk metrics including var, cvar, sharpe,|
wshobson|rust-async-patterns|master rust async programming with tokio, async traits,|
wshobson|saga-orchestration|implement saga patterns for distributed transactions and cross-aggregate|
wshobson|sast-configuration|configure static application security testing (sast) tools for|
wshobson|screen-reader-testing|test web applications with screen readers including voiceover,|
wshobson|secrets-management|implement secure secrets management for ci/cd pipelines using|
wshobson|security-requirement-extraction|derive security requirements from threat models and business|
wshobson|service-mesh-observability|implement comprehensive observability for service meshes including distributed|
wshobson|shellcheck-configuration|master shellcheck static analysis configuration and usage for|
wshobson|signed-audit-trails-recipe|step-by-step cookbook for setting up cryptographically signed audit|
wshobson|similarity-search-patterns|implement efficient similarity search with vector databases. use|
wshobson|slo-implementation|define and implement service level indicators (slis) and|
wshobson|social-publishing|schedule and publish social media posts across 13|
wshobson|solidity-security|master smart contract security best practices to prevent|
wshobson|spark-environment-setup|set up a working ml training/inference environment on|
wshobson|spark-memory-thermal-ops|manage unified memory and thermals during long-running ml|
wshobson|spark-optimization|optimize apache spark jobs with partitioning, caching, shuffle|
wshobson|spark-training-gotchas|preflight and diagnose the ten known failure modes|
wshobson|startup-financial-modeling|build comprehensive 3-5 year financial models with revenue|
wshobson|startup-metrics-framework|track, calculate, and optimize key performance metrics for|
wshobson|stride-analysis-patterns|apply stride methodology to systematically identify threats. use|
wshobson|stripe-integration|implement stripe payment processing for robust, pci-compliant payment|
wshobson|tailwind-design-system|build scalable design systems with tailwind css v4,|
wshobson|team-composition-analysis|design optimal team structures, hiring plans, compensation strategies,|
wshobson|temporal-python-testing|test temporal workflows with pytest, time-skipping, and mocking|
wshobson|terraform-module-library|build reusable terraform modules for aws, azure, gcp,|
wshobson|threat-mitigation-mapping|map identified threats to appropriate security controls and|
wshobson|trace-to-training-data|convert evaluation traces and production logs into sft|
wshobson|turborepo-caching|configure turborepo for efficient monorepo builds with local|
wshobson|unity-ecs-patterns|master unity ecs (entity component system) with dots,|
wshobson|uv-package-manager|master the uv package manager for fast python|
wshobson|vector-index-tuning|optimize vector index performance for latency, recall, and|
wshobson|vision-sft|fine-tune vision-language models (vlms) with supervised learning on|
wshobson|wcag-audit-patterns|conduct wcag 2.2 accessibility audits with automated testing,|
wshobson|web3-testing|test smart contracts comprehensively using hardhat and foundry|
wshobson|workflow-orchestration-patterns|design durable workflows with temporal for distributed systems.|
`;
