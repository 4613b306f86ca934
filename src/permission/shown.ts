/**
 * What a permission request will do, as the tool that asks describes it: the well-known keys of
 * `metadata`, computed by the tool before it asks, read the same way by every answerer (the
 * terminal, MCP forms, the console). Showing is not deciding: the gate never reads them. A tool
 * may add keys of its own; a well-known key whose value is not a non-empty string is ignored, so
 * a request cannot make an answerer show something else under a known heading. A description is
 * the agent's own words about the call, not what runs: answerers show at most
 * `MAX_DESCRIPTION` characters of it, so it cannot push the command out of view.
 */
export * as PermissionShown from "./shown.js"

/** The most characters of a description an answerer shows; the rest is counted, not shown. */
export const MAX_DESCRIPTION = 300

export const Messages = {
  cut: (description: string) => `${description.slice(0, MAX_DESCRIPTION)}… (${description.length - MAX_DESCRIPTION} more characters not shown)`,
} as const

/** The well-known metadata keys, in the order answerers show them. */
export const KEYS = ["purpose", "command", "description", "sandbox", "workdir", "url", "canonical", "redirectedFrom", "server", "tool", "arguments", "diff"] as const
export type Key = (typeof KEYS)[number]

/** What tools write into `metadata` (a type, not an interface, so that it is a metadata record). */
export type Shown = {
  /** external_directory asked by a file tool: what the call does there (`edit /home/me/.bashrc`). */
  readonly purpose?: string
  /** bash: the command line as written, and the description the model gave it. */
  readonly command?: string
  readonly description?: string
  /** bash in the OS sandbox: what the sandbox lets it do (`SandboxMode.Messages.shown`). */
  readonly sandbox?: string
  /** bash: the directory it runs in. */
  readonly workdir?: string
  /** webfetch: the URL as requested, and as fetched when that differs (WebUrl's canonical form). */
  readonly url?: string
  readonly canonical?: string
  /** webfetch: the call's URL, when this ask is for a redirect away from it. */
  readonly redirectedFrom?: string
  /** An external MCP tool: its server, its own name, and the arguments it would send. */
  readonly server?: string
  readonly tool?: string
  readonly arguments?: string
  /** edit, write, apply_patch: the unified diff of the change (FileDiff), or why it is not shown. */
  readonly diff?: string
}

/**
 * The well-known keys of a request's metadata that hold text.
 * @example PermissionShown.of({ diff: "--- a\n+++ a\n", times: 2 }) // { diff: "--- a\n+++ a\n" }
 */
export const of = (metadata: Readonly<Record<string, unknown>>): Shown =>
  Object.fromEntries(KEYS.flatMap((key) => {
    const value = metadata[key]
    return typeof value === "string" && value !== "" ? [[key, value]] : []
  }))

/**
 * A description as answerers show it: cut past `MAX_DESCRIPTION`, saying how much was left out.
 * @example PermissionShown.description("Run the tests") // "Run the tests"
 */
export const description = (text: string): string => (text.length <= MAX_DESCRIPTION ? text : Messages.cut(text))
