/**
 * The optional OS sandbox of bash commands (issue 20): which mode, whether the network is on,
 * and how one is combined from config files and flags. `off` is the default and keeps bash as
 * the design says (`BashTool.NOT_SANDBOXED`). `workspace-write`: the Location and a private
 * temporary directory are writable, everything else read-only, secrets not readable at all.
 * `read-only`: nothing writable but the private temporary directory. The network is off in
 * either unless `bash.network` is true or a `bash_network` rule allows it for the command.
 * A project file (written by whoever wrote the repository) may only make the sandbox stricter:
 * it can turn it on, never off, and never turn the network on.
 */
export * as SandboxMode from "./mode.js"

export const MODES = ["off", "workspace-write", "read-only"] as const
export type Mode = (typeof MODES)[number]

/** The action a rule names to let a sandboxed command use the network. */
export const NETWORK_ACTION = "bash_network"

/** The `when` of a rule that matches only commands that run sandboxed. */
export const WHEN_SANDBOXED = "sandboxed"

export interface Setting {
  readonly sandbox: Mode
  readonly network: boolean
}

export const OFF: Setting = { sandbox: "off", network: false }

/** How strict a mode is: a project file may only raise it. */
const STRICTNESS: Readonly<Record<Mode, number>> = { off: 0, "workspace-write": 1, "read-only": 2 }

export const isMode = (value: unknown): value is Mode => MODES.includes(value as Mode)

export const Messages = {
  /** What the person reads on a sandboxed command's request (prompt, console, MCP form). */
  shown: (mode: Exclude<Mode, "off">, directory: string, network: boolean) =>
    `sandboxed: ${mode === "workspace-write" ? `writes only inside ${directory}` : "writes nothing outside a private temporary directory"}, ${network ? "network on" : "no network"}`,
  invalidFlag: (value: string) => `Invalid --sandbox: ${value} (expected ${MODES.join(", ")})`,
} as const

export interface Layer {
  readonly scope: "global" | "project" | "explicit"
  readonly sandbox?: Mode
  readonly network?: boolean
}

/**
 * The setting of files in load order, then a flag's mode (`--sandbox`, which wins over files).
 * @example SandboxMode.combine([{ scope: "global", sandbox: "workspace-write" }, { scope: "project", sandbox: "off" }]) // { sandbox: "workspace-write", network: false }
 */
export const combine = (layers: ReadonlyArray<Layer>, flag?: Mode): Setting => {
  let sandbox: Mode = "off"
  let network = false
  for (const layer of layers) {
    const project = layer.scope === "project"
    if (layer.sandbox !== undefined && (!project || STRICTNESS[layer.sandbox] > STRICTNESS[sandbox])) sandbox = layer.sandbox
    if (layer.network !== undefined && (!project || layer.network === false)) network = layer.network
  }
  return { sandbox: flag ?? sandbox, network }
}
