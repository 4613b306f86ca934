/**
 * Programs that write a file their words name, found by the fifth outside review: bash's own
 * `history -w`/`-a` (the list `history -s` fills, so any text, into any file: `~/.bashrc`),
 * `openssl`'s `-out`/`-keyout`/`-writerand` (`openssl base64 -d -in p -out .git/config` writes a
 * decoded payload), `gpg -o`/`--output`, `ssh-keygen -f` (the key and its `.pub`) and `logsave`'s
 * log (the command it runs is judged as a wrapper's, parse-launch.ts). Each file is
 * a target like a redirect's. Options that load code or a config naming programs are opaque:
 * openssl's `-engine`, `-provider`, `-provider-path`; gpg's `--homedir`, `--options`,
 * `--photo-viewer`, `--exec-path`, `--agent-program`, `--dirmngr-program`; ssh-keygen's `-D`
 * (a PKCS#11 library) and `-w` (a FIDO middleware library).
 */
export * as BashProgramsOutput from "./programs-output.js"

import { BashProgramsScan } from "./programs-scan.js"

type Program = BashProgramsScan.Program

/**
 * `history [-c] [-d n] [-anrw] [file]`: `-a` and `-w` write the file, or `$HISTFILE` when none is
 * named (unknown here); `-s` and `-p` take the rest as text.
 */
const history: Program = (words, start, end) => {
  const literals = words.slice(start + 1, end).map(BashProgramsScan.literalOf)
  const writes = literals.some((word) => word === undefined || (word.startsWith("-") && /[aw]/.test(word.slice(1))))
  if (!writes) return BashProgramsScan.CLEAR
  if (literals.some((word) => word === undefined || (word.startsWith("-") && /[sp]/.test(word.slice(1))))) return BashProgramsScan.OPAQUE
  const at = literals.findIndex((word) => !(word as string).startsWith("-") || word === "-")
  const file = at === -1 ? undefined : words[start + 1 + at]
  return { opaque: false, writes: file === undefined ? [{ kind: "file", path: undefined, cwd: [] }] : BashProgramsScan.written(file) }
}

/** openssl options (one dash or two) whose value is a file it writes; flags that end so. */
const OPENSSL_WRITES = /^-(?:[A-Za-z]*out|writerand|CAserial)$/
const OPENSSL_FLAGS = ["-noout", "-pubout", "-timeout"]

/**
 * `openssl <command> [options]`: every option that ends in `out` (`-out`, `-keyout`, `-certout`)
 * or is `-writerand`/`-CAserial` writes its value, `-outdir` into its value; `-engine`,
 * `-provider`, `-provider-path` and a key form given as `engine` load code. With no command it
 * reads its commands from standard input: opaque.
 */
const openssl: Program = (words, start, end) => {
  if (start + 1 >= end) return BashProgramsScan.OPAQUE
  const writes: Array<BashProgramsScan.Write> = []
  for (let i = start + 1; i < end; i++) {
    const word = words[i] as BashProgramsScan.Words[number]
    const literal = BashProgramsScan.literalOf(word)
    if (literal === undefined ? BashProgramsScan.mayBeOption(word) : BashProgramsScan.nameExpands(literal)) return BashProgramsScan.OPAQUE
    if (literal === undefined || !literal.startsWith("-")) continue
    // openssl takes `-out=f` and `--out f` as `-out f`.
    const equals = literal.indexOf("=")
    const name = (equals === -1 ? literal : literal.slice(0, equals)).replace(/^--/, "-")
    const next = words[i + 1]
    const value: BashProgramsScan.Value = equals === -1 ? { name, value: next === undefined ? undefined : BashProgramsScan.literalOf(next), word: next } : { name, value: literal.slice(equals + 1), word: undefined }
    if (name === "-engine" || name === "-provider" || name === "-provider-path") return BashProgramsScan.OPAQUE
    if (name.endsWith("form") && (value.value === undefined || value.value.toLowerCase() === "engine")) return BashProgramsScan.OPAQUE
    if ((equals === -1 && next === undefined) || OPENSSL_FLAGS.includes(name)) continue
    if (name === "-outdir") writes.push(...BashProgramsScan.writtenValue(value, "directory"))
    else if (OPENSSL_WRITES.test(name)) writes.push(...BashProgramsScan.writtenValue(value))
  }
  return { opaque: false, writes }
}

const GPG: BashProgramsScan.Spec = {
  flags: "abcdeikKlnqsStvV",
  args: "ufFrRzNT",
  longArgs: ["--recipient", "--local-user", "--default-key", "--hidden-recipient", "--recipient-file", "--encrypt-to", "--keyring", "--secret-keyring", "--trustdb-name", "--cipher-algo", "--digest-algo", "--compress-algo", "--passphrase", "--passphrase-fd", "--passphrase-file", "--pinentry-mode", "--status-fd", "--logger-fd", "--keyserver", "--trust-model", "--default-recipient", "--set-filename", "--comment", "--compress-level"],
  longFlags: ["--armor", "--batch", "--yes", "--no", "--quiet", "--verbose", "--sign", "--clearsign", "--clear-sign", "--detach-sign", "--encrypt", "--symmetric", "--decrypt", "--verify", "--list-keys", "--list-secret-keys", "--import", "--export", "--export-secret-keys", "--fingerprint", "--with-colons", "--no-tty", "--dry-run", "--gen-key", "--full-gen-key", "--quick-gen-key", "--edit-key", "--delete-keys", "--recv-keys", "--send-keys", "--print-md", "--textmode", "--always-trust", "--no-default-keyring", "--dearmor", "--enarmor", "--store"],
  files: ["-o", "--output"],
  opaque: ["--homedir", "--options", "--photo-viewer", "--exec-path", "--agent-program", "--dirmngr-program", "--keyserver-options", "--load-extension"],
}

const SSH_KEYGEN: BashProgramsScan.Spec = {
  flags: "ABceghHikKlLpqQUuvy",
  args: "abCEFIjJmMnNOPrsStVYzZ",
  files: ["-f", "-T"],
  opaque: ["-D", "-w"],
  ordered: true,
}

/** `ssh-keygen -f key` writes the key and `key.pub` (or rewrites it: `-p`, `-c`, `-R`, `-H`). */
const sshKeygen: Program = BashProgramsScan.scan(SSH_KEYGEN, (found) => ({
  opaque: false,
  writes: found.readings.flatMap((reading) => reading.values.flatMap((value) => (value.name === "-f" && value.value !== undefined && !value.value.includes(BashProgramsScan.UNKNOWN) ? [{ kind: "file" as const, path: `${value.value}.pub`, cwd: [] }] : []))),
}))

/** `logsave [-asv] logfile cmd…` writes the command's output to the log file. */
const logsave: Program = BashProgramsScan.scan({ flags: "asv", ordered: true }, (found) => ({
  opaque: false,
  writes: found.readings.flatMap((reading) => {
    const at = reading.operands[0]
    const word = at === undefined ? undefined : found.words[at]
    return word === undefined ? [] : BashProgramsScan.written(word)
  }),
}))

export const PROGRAMS: ReadonlyArray<readonly [string, Program]> = [
  ["history", history],
  ["logsave", logsave],
  ["openssl", openssl],
  ["gpg", BashProgramsScan.scan(GPG)],
  ["gpg2", BashProgramsScan.scan(GPG)],
  ["ssh-keygen", sshKeygen],
]
