/**
 * Network clients (07). ssh is opaque with a remote command or shell (anything but `-N`/`-W`
 * after the host), `-F`, `-I`, or an `-o` outside a list of inert ones (`ProxyCommand`,
 * `LocalCommand`, … run programs); `-E log` is written. scp is opaque with `-o`, `-S`, `-F`, `-D`
 * and writes a local target; sftp runs commands from its input: opaque. rsync's `-e`/`--rsh`,
 * `--rsync-path`, `-M` and `--daemon` are opaque; it writes a local destination, its log, batch,
 * temporary and backup files, and its sources with `--remove-source-files`. curl and wget are
 * downloads (programs-download.ts).
 */
export * as BashProgramsNet from "./programs-net.js"

import type { BashParseWord } from "./parse-word.js"
import { BashProgramsFiles } from "./programs-files.js"
import { BashProgramsScan } from "./programs-scan.js"

type Word = BashParseWord.Word
type Verdict = BashProgramsScan.Verdict

/** ssh `-o` options (lower case) that run nothing, load nothing and write nothing. */
export const INERT_SSH_OPTIONS: ReadonlyArray<string> = [
  ...["stricthostkeychecking", "connecttimeout", "connectionattempts", "batchmode", "port", "user", "identityfile", "identitiesonly", "serveraliveinterval", "serveralivecountmax"],
  ...["loglevel", "compression", "hostkeyalias", "passwordauthentication", "pubkeyauthentication", "preferredauthentications", "kbdinteractiveauthentication", "addressfamily"],
  ...["tcpkeepalive", "requesttty", "exitonforwardfailure", "numberofpasswordprompts", "hostkeyalgorithms", "pubkeyacceptedalgorithms", "pubkeyacceptedkeytypes", "ciphers", "macs"],
  ...["kexalgorithms", "checkhostip", "visualhostkey", "ipqos", "rekeylimit", "verifyhostkeydns", "nohostauthenticationforlocalhost", "gatewayports", "localforward", "remoteforward"],
  ...["dynamicforward", "clearallforwardings", "bindaddress", "bindinterface", "escapechar", "sendenv", "setenv", "forwardagent", "gssapiauthentication"],
]

const SSH: BashProgramsScan.Spec = { flags: "46AaCfGgKkMNnqsTtVvXxYy", args: "BbcDeFIiJLlmOpQRSWw", files: ["-E"], values: ["-o"], opaque: ["-F", "-I"] }

const inert = (option: string | undefined) => option !== undefined && INERT_SSH_OPTIONS.includes((option.split(/[=\s]/)[0] as string).toLowerCase())

/** `ssh [options] host [command]`: a remote command or shell is a command no one here sees. */
const ssh = BashProgramsScan.scan(SSH, (found) =>
  BashProgramsScan.union(
    found.readings.map((reading): Verdict => {
      if (!reading.values.every((value) => value.name !== "-o" || inert(value.value))) return BashProgramsScan.OPAQUE
      if (BashProgramsScan.saw(reading, ["-V", "-G", "-Q", "-O"])) return BashProgramsScan.CLEAR
      const quiet = reading.operands.length === 1 && BashProgramsScan.saw(reading, ["-N", "-W"])
      return reading.operands.length === 0 || quiet ? BashProgramsScan.CLEAR : BashProgramsScan.OPAQUE
    }),
  ),
)

/** A local path of scp or rsync: no `host:` before its first `/`, and not a URL. */
const local = (word: Word) => word.literal === undefined || word.literal.startsWith("/") || !/^[^/]*:/.test(word.literal)

const SCP: BashProgramsScan.Spec = { flags: "346ABCOpqRrTv", args: "cDFiJlPSXo", opaque: ["-o", "-S", "-F", "-D"] }

/** `scp [options] source… target`: a local target is written. */
const scp = BashProgramsScan.scan(SCP, (found) =>
  BashProgramsScan.union(
    found.readings.map((reading): Verdict => {
      const target = reading.operands.length < 2 ? undefined : found.words[reading.operands.at(-1) as number]
      return { opaque: false, writes: target === undefined || !local(target) ? [] : BashProgramsScan.written(target) }
    }),
  ),
)

const RSYNC: BashProgramsScan.Spec = {
  flags: "vqcarRbuldLkKHpEAXogDtOJUNSnWxCIyzPhFim0",
  args: "fB",
  longArgs: [
    ...["--exclude", "--include", "--exclude-from", "--include-from", "--files-from", "--filter", "--chmod", "--chown", "--usermap", "--groupmap", "--timeout", "--contimeout"],
    ...["--port", "--bwlimit", "--max-size", "--min-size", "--max-delete", "--block-size", "--compare-dest", "--copy-dest", "--link-dest", "--suffix", "--password-file"],
    ...["--out-format", "--log-file-format", "--read-batch", "--protocol", "--iconv", "--checksum-choice", "--compress-choice", "--compress-level", "--skip-compress", "--info", "--debug"],
    ...["--modify-window", "--sockopts", "--outbuf", "--address", "--stop-after", "--stop-at", "--rsh", "--rsync-path", "--remote-option", "--config"],
  ],
  longFlags: [
    ...["--verbose", "--quiet", "--checksum", "--archive", "--recursive", "--relative", "--backup", "--update", "--links", "--copy-links", "--hard-links", "--perms", "--times"],
    ...["--group", "--owner", "--devices", "--specials", "--dry-run", "--whole-file", "--one-file-system", "--delete", "--delete-before", "--delete-during", "--delete-after"],
    ...["--delete-excluded", "--force", "--partial", "--progress", "--compress", "--human-readable", "--stats", "--itemize-changes", "--mkpath", "--remove-source-files", "--daemon"],
  ],
  files: ["--log-file", "--write-batch", "--only-write-batch"],
  directories: ["-T", "--temp-dir", "--backup-dir"],
  opaque: ["-e", "--rsh", "--rsync-path", "-M", "--remote-option", "--daemon", "--config"],
}

/** `rsync [options] source… destination`: a local destination is written, with what lands in it; with `--remove-source-files`, the sources. */
const rsync = BashProgramsScan.scan(RSYNC, (found) =>
  BashProgramsScan.union(
    found.readings.map((reading): Verdict => {
      const operands = reading.operands.map((index) => found.words[index] as Word)
      const target = operands.length < 2 ? undefined : operands.at(-1)
      const sources = BashProgramsScan.saw(reading, ["--remove-source-files"]) ? operands.slice(0, -1).filter(local) : []
      const tree = BashProgramsScan.saw(reading, ["-r", "-a", "--recursive", "--archive"])
      const landing = operands.slice(0, -1).filter(local).map((word) => BashProgramsFiles.sourceOf(word, tree))
      const destination = target === undefined || !local(target) ? [] : BashProgramsScan.written(target).map((write) => ({ ...write, sources: landing }))
      // A backup (`-b`, `--suffix`, `--backup-dir`) renames what it replaces to a name it makes: unplaced.
      const backup = BashProgramsScan.saw(reading, ["-b", "--backup", "--suffix", "--backup-dir"]) && destination.length > 0 ? [BashProgramsScan.UNPLACED] : []
      return { opaque: false, writes: [...destination, ...sources.flatMap((word) => BashProgramsScan.written(word)), ...backup] }
    }),
  ),
)

export const PROGRAMS: ReadonlyArray<readonly [string, BashProgramsScan.Program]> = [
  ["ssh", ssh],
  ["scp", scp],
  ["sftp", () => BashProgramsScan.OPAQUE],
  ["rsync", rsync],
]
