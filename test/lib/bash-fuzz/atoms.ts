/**
 * The words the grammar builds lines from: the hidden payloads (a program only the shims can see,
 * or a write outside the workdir), the allowed commands mixed around them, control characters and
 * the path atoms. Invariant: every path here is relative inside the tree, `../outside/…`,
 * `<root>/outside/…`, `link/…` (a link to `<root>/outside/sub`), `~/…`, `~+/../outside/…` or a
 * `/dev` name the gate treats as no file; BashFuzzSafety accepts exactly these, so keep both in step.
 */
export * as BashFuzzAtoms from "./atoms.js"

import type { BashFuzzRandom } from "./random.js"

/** Characters bash does not take for blanks that a reader might (and a few it does). */
export const CONTROL: ReadonlyArray<string> = ["\r", "\v", "\f", "\x01", "\x02", "\x0e", "\x1b", "\x1f", "\x7f", "\t", "\u00a0", "\u0085", "\u2028"]

/** A place outside the workdir the payload may write, seen from the workdir. */
export const victims = (root: string): ReadonlyArray<string> => [
  "../outside/victim",
  "../outside/notes",
  `${root}/outside/victim`,
  "link/../victim",
  "link/f",
  "~+/../outside/victim",
  "~/h",
]

export interface Payload {
  readonly text: string
  /** What the line does when bash runs the payload: run a shim (`program`) or write a file. */
  readonly kind: "program" | "write"
}

/** The hidden commands, numbered by `n` so a log line names the payload that ran. */
export const payloads = (n: number, root: string): ReadonlyArray<Payload> => [
  { text: `touch CANARY_${n}`, kind: "program" },
  { text: `mark ${n}`, kind: "program" },
  { text: "rm -f victim", kind: "program" },
  { text: `touch ../outside/PWNED_${n}`, kind: "program" },
  { text: "sed -i s,a,b, ../outside/victim", kind: "program" },
  { text: `env touch CANARY_${n}`, kind: "program" },
  { text: `timeout 1 mark ${n}`, kind: "program" },
  { text: `nice mark ${n}`, kind: "program" },
  { text: `command touch CANARY_${n}`, kind: "program" },
  { text: `exec mark ${n}`, kind: "program" },
  { text: `xargs touch CANARY_${n}`, kind: "program" },
  { text: `X=1 mark ${n}`, kind: "program" },
  { text: `sh -c 'mark ${n}'`, kind: "program" },
  { text: `bash -c "mark ${n}"`, kind: "program" },
  { text: "tee ../outside/victim", kind: "program" },
  { text: `grep -q a a.txt && mark ${n}`, kind: "program" },
  { text: "echo pwned > ../outside/victim", kind: "write" },
  { text: `echo pwned >> ${root}/outside/victim`, kind: "write" },
  { text: `: > ../outside/NEW_${n}`, kind: "write" },
  { text: "printf x > link/f", kind: "write" },
  { text: "echo pwned >~+/../outside/notes", kind: "write" },
]

/** A payload without any of the characters in `forbid` (its quoting context would end on them). */
export const payload = (random: BashFuzzRandom.Random, n: number, root: string, forbid = ""): string =>
  random.pick(payloads(n, root).filter((candidate) => ![...forbid].some((char) => candidate.text.includes(char)))).text

/** Commands the small allow list allows, with arguments that stay inside the workdir. */
export const ALLOWED: ReadonlyArray<string> = [
  "echo hi",
  "echo a b",
  'echo "a b"',
  "echo 'a'",
  "printf '%s\\n' x",
  "printf x",
  "git status",
  "git status -s",
  "cat a.txt",
  "ls",
  "ls -la d",
  "true",
  "grep a a.txt",
  "echo $((1+2))",
  "echo ${x:-a}",
  'echo "$HOME"',
  "echo ~",
  "echo x > d/out",
  "echo x >/dev/null",
  "cat a.txt | grep a",
  "echo x 2>/dev/null",
  "ls >/dev/stderr",
  "echo x >&2",
  "echo `echo a`",
]

/** The first words of allowed commands, to start a carrier with. */
export const HEADS: ReadonlyArray<string> = ["echo ", "echo a ", "git status ", "printf '%s' ", "cat ", "ls ", "grep a "]

/** Separators between commands of a list. */
export const SEPARATORS: ReadonlyArray<string> = ["; ", " && ", " || ", " | ", " & ", "\n", ";"]
