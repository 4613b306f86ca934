/**
 * A program's other installed names (07): distributions install an interpreter or shell under its
 * version (`perl5.36.0`, `tclsh8.6`, `php8.2`, `ruby3.1`, `zsh-5.9`, `ksh93`, `python3.11-dbg`,
 * `g++-12`), a flavour (`vim.basic`, `vim.tiny`, `bash-static`) or a role (`editor`, `pager`), and
 * each runs exactly what the bare name runs. The tables know bare names, so `perl5.36.0 -e 'system(…)'` was allowed under a
 * `git push *` deny where `perl -e` asks. The stem is read only where the exact name is no table's:
 * `python3`, `lz4`, `x86_64` (setarch) keep their own entries.
 */
export * as BashProgramNames from "./names.js"

/**
 * A name, then a version (`5.36.0`, `-5.9`, `93`, with python's ABI letter `3.11d`) and/or a
 * flavour (`-static`, `-dbg`, `.basic`, `.tiny`, `.nox`, `.gtk3`, …). The stem ends in a letter
 * or `+` (`g++-12`), so `x86_64` or `base64` with digits inside are read only by their version.
 */
const VERSIONED = /^([A-Za-z][A-Za-z0-9+_-]*?[A-Za-z+])(?:[-_]?\d+(?:\.\d+)*[dmtu]?)?(?:[-.](?:static|dbg|debug|basic|tiny|nox|gtk|gtk2|gtk3|athena|motif|appimage))?$/

/**
 * Debian's alternatives that name a program by its role: `editor` and `sensible-editor` are
 * `vim.basic` here (nano elsewhere, which runs nothing from its words: reading it as vim only asks
 * more), `pager` is `less`, `js` is `node`. `editor -c '!cmd'` ran the command.
 */
const ALTERNATIVES: Readonly<Record<string, string>> = { editor: "vim", "sensible-editor": "vim", pager: "less", "sensible-pager": "less", js: "node" }

/**
 * The name `base` is a version, flavour or alternative of, or undefined when it is none
 * (`perl5.36.0` → `perl`, `vim.basic` → `vim`, `editor` → `vim`, `perl` → undefined).
 * @example BashProgramNames.stem("tclsh8.6") // "tclsh"
 */
export const stem = (base: string): string | undefined => {
  if (Object.hasOwn(ALTERNATIVES, base)) return ALTERNATIVES[base]
  const found = VERSIONED.exec(base)?.[1]
  return found === undefined || found === base ? undefined : found
}

/**
 * What `table` has for the program `base`: its own entry, else its stem's.
 * @example BashProgramNames.lookup(new Map([["perl", 1]]), "perl5.36.0") // 1
 */
export const lookup = <T>(table: ReadonlyMap<string, T>, base: string): T | undefined => {
  const own = table.get(base)
  if (own !== undefined) return own
  const bare = stem(base)
  return bare === undefined ? undefined : table.get(bare)
}
