/** `toolgate run`, as help and the flag parser see it (cli/spec.ts). */
export * as RunSpec from "./run.js"

import { DEFAULT_API_KEY_ENV, DEFAULT_BASE_URL, DEFAULT_IDLE_TIMEOUT_S, DEFAULT_MAX_STEPS } from "../../ai/endpoint.js"
import { Spec } from "../spec.js"

export const spec: Spec.Spec = {
  name: "run",
  summary: "Run a model against a directory, every tool call through the gate",
  usage: ['toolgate run "<prompt>" --model <id> [flags]', "echo '<prompt>' | toolgate run --model <id> [flags]"],
  description: [
    "Runs the agent loop: the model answers, its tool calls run through the permission gate, their",
    "results go back to it, until it answers without calling a tool. The model's text streams to",
    "stdout; each tool call is one line on stderr, and the todo list when it changes. Any endpoint",
    "that speaks the OpenAI chat-completions API works (Ollama, vLLM, llama.cpp, LM Studio, OpenAI).",
    "An ask is answered as --on-ask says; a reject stops the run. The session id is printed at the",
    "end, for `toolgate session diff` and `session revert`.",
  ],
  flags: {
    ...Spec.LOCATION_FLAGS,
    json: { type: "boolean", description: "Print each event of the run as one JSON line instead of text" },
    session: { type: "string", value: "id", description: "The session to run in; created with this id when new", default: "a new session" },
    model: { type: "string", value: "id", description: "The model id the endpoint serves (required)" },
    "base-url": { type: "string", value: "url", description: "The OpenAI-compatible endpoint, up to /v1", default: `$TOOLGATE_BASE_URL, else ${DEFAULT_BASE_URL} (Ollama)` },
    "api-key-env": { type: "string", value: "name", description: "The environment variable that holds the endpoint's API key", default: `${DEFAULT_API_KEY_ENV}, or no key when it is unset` },
    sandbox: Spec.SANDBOX,
    "max-steps": { type: "string", value: "n", description: "Stop after this many model steps", default: String(DEFAULT_MAX_STEPS) },
    "idle-timeout": { type: "string", value: "seconds", description: "Fail the run when the endpoint sends nothing for this long", default: String(DEFAULT_IDLE_TIMEOUT_S) },
    "on-ask": {
      type: "string",
      value: "mode",
      description: "Who answers an ask: prompt (ask at the terminal), once, always, reject (the run stops), deny (the model reads the deny)",
      default: "prompt at a terminal, else reject",
    },
  },
  examples: [
    { command: 'toolgate run "Fix the failing test in src/parse.ts" --model qwen2.5-coder:14b', description: "Run a local Ollama model in the current directory, asking at the terminal" },
    {
      command: 'toolgate run "Add a CHANGELOG entry" --model gpt-4.1 --base-url https://api.openai.com/v1 --api-key-env OPENAI_API_KEY',
      description: "Run an OpenAI model",
    },
    { command: 'toolgate run "Summarise the README" --model llama3 --base-url http://localhost:8080/v1 --on-ask deny --json', description: "A llama.cpp server, no asks, events as JSON lines" },
  ],
  exitCodes: [
    [0, "the model finished (it answered without calling a tool)"],
    [1, "the model failed (an endpoint that is down or answers what cannot be read), or the run stopped at --max-steps"],
    [2, "usage error: no prompt or model, a bad flag, a tool, agent or config that cannot be used"],
    [4, "a person declined a call (or dismissed a question): the run stopped"],
    [5, "an answering --on-ask mode inside a toolgate tool call"],
  ],
}
