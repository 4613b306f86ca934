/**
 * Downloads (07): curl and wget write files whose names the URL or the server gives. An outside
 * review found `curl --output-dir .git -O http://h/config`, `curl -O http://h/.envrc` and `wget
 * -x -nH http://h/.git/config` allowed while `curl -o .git/config` asked: the file is the same
 * thing, so where it lands is a target (BashProgramsUrl). Where it cannot be known statically
 * (the server chooses: `curl -J`, `wget --content-disposition`; a tree of links: `wget -r`; a
 * list: `wget -i`; a URL that is not static) it is a write to an unknown path, asked like
 * `> $OUT`. Their config and command options are opaque; header, cookie, trace and log files
 * are written where curl runs (`--output-dir` holds only the downloads).
 */
export * as BashProgramsDownload from "./programs-download.js"

import type { BashParseWord } from "./parse-word.js"
import { BashProgramsScan } from "./programs-scan.js"
import { BashProgramsUrl } from "./programs-url.js"

type Word = BashParseWord.Word
type Write = BashProgramsScan.Write
type Value = BashProgramsScan.Value
type Reading = BashProgramsScan.Reading

const CURL: BashProgramsScan.Spec = {
  flags: "0123456:#aBfgGiIjJklLMnNOpqRsSvVZ",
  args: "AbCdeEFHmPQrtTuUxXyYz",
  longArgs: [
    ...["--data", "--data-binary", "--data-raw", "--data-urlencode", "--data-ascii", "--json", "--header", "--request", "--user", "--user-agent", "--max-time"],
    ...["--connect-timeout", "--retry", "--retry-delay", "--retry-max-time", "--form", "--form-string", "--cookie", "--proxy", "--proxy-user", "--cert", "--key", "--cacert", "--capath"],
    ...["--referer", "--range", "--upload-file", "--resolve", "--connect-to", "--interface", "--limit-rate", "--variable", "--url-query", "--aws-sigv4", "--oauth2-bearer", "--netrc-file"],
    ...["--continue-at", "--max-filesize", "--speed-limit", "--speed-time", "--time-cond", "--max-redirs", "--noproxy", "--preproxy", "--proxy-header", "--dns-servers", "--engine"],
  ],
  longFlags: [
    ...["--silent", "--show-error", "--location", "--fail", "--fail-with-body", "--insecure", "--verbose", "--include", "--head", "--remote-name", "--remote-name-all", "--remote-header-name"],
    ...["--create-dirs", "--compressed", "--globoff", "--get", "--no-buffer", "--progress-bar", "--http1.1", "--http2", "--parallel", "--next"],
  ],
  files: ["-D", "--dump-header", "-c", "--cookie-jar", "--trace", "--trace-ascii", "--stderr", "--etag-save", "--hsts", "--alt-svc", "--libcurl"],
  directories: ["--output-dir"],
  values: ["-w", "--write-out", "-o", "--output", "--url"],
  opaque: ["-K", "--config", "--engine"],
}

/** curl's URL globs (`{a,b}`, `[1-3]`): a name with one is unknowable unless `-g`; `-o '#1'` takes a glob's match. */
const CURL_GLOB = /[{}[\]]/
const CURL_MATCH = /#\d/

const unknown: Write = { kind: "file", path: undefined, cwd: [] }

/** Where a value names a folder to run from: its path, undefined when not static. */
const placeOf = (value: Value): string | undefined => (value.word !== undefined ? value.word.path : BashProgramsScan.known(value.value) ? value.value : undefined)

/** The URLs of a reading: its operands and `--url` values, each a static string or undefined. */
const urlsOf = (found: BashProgramsScan.Read, reading: Reading, named: ReadonlyArray<string>): ReadonlyArray<string | undefined> => [
  ...reading.operands.map((index) => (found.words[index] as Word).literal),
  ...reading.values.filter((value) => named.includes(value.name)).map((value) => (BashProgramsScan.known(value.value) ? value.value : undefined)),
]

/** The folders given by `names` (the last wins; every one is judged), or the place the program runs. */
const folders = (reading: Reading, names: ReadonlyArray<string>): ReadonlyArray<BashProgramsScan.Write["cwd"]> => {
  const given = reading.values.filter((value) => names.includes(value.name))
  return given.length === 0 ? [[]] : given.map((value) => [placeOf(value)])
}

/**
 * curl: `-o FILE` and `-O` (the URL's last segment; every URL with `--remote-name-all`) land in
 * `--output-dir`; `-J` lets the server name the file. `-w '%output{file}'` (curl 8.3) writes
 * where the format says: opaque when it does or is not static.
 */
const curl = BashProgramsScan.scan(CURL, (found) =>
  BashProgramsScan.union(
    found.readings.map((reading): BashProgramsScan.Verdict => {
      const formats = reading.values.filter((value) => value.name === "-w" || value.name === "--write-out")
      if (formats.some((value) => !BashProgramsScan.known(value.value) || value.value.includes("%output{"))) return BashProgramsScan.OPAQUE
      const globs = !BashProgramsScan.saw(reading, ["-g", "--globoff"])
      const places = folders(reading, ["--output-dir"])
      const at = (path: string | undefined): ReadonlyArray<Write> => places.map((cwd) => ({ kind: "file", path, cwd }))
      const outputs = reading.values
        .filter((value) => value.name === "-o" || value.name === "--output")
        .flatMap((value) => (globs && value.value !== undefined && CURL_MATCH.test(value.value) ? at(undefined) : places.flatMap((cwd) => BashProgramsScan.writtenValue(value, "file", cwd))))
      if (!BashProgramsScan.saw(reading, ["-O", "--remote-name", "--remote-name-all"])) return { opaque: false, writes: outputs }
      if (BashProgramsScan.saw(reading, ["-J", "--remote-header-name"])) return { opaque: false, writes: [...outputs, ...at(undefined)] }
      const remote = urlsOf(found, reading, ["--url"]).flatMap((url) => {
        if (url === undefined || (globs && CURL_GLOB.test(url))) return at(undefined)
        const name = BashProgramsUrl.curlName(url)
        return name === undefined ? [] : at(name)
      })
      return { opaque: false, writes: [...outputs, ...remote] }
    }),
  ),
)

/** wget options after which the files it writes are named by the server or by pages it reads. */
const WGET_UNKNOWABLE = [
  ...["-r", "--recursive", "-m", "--mirror", "-p", "--page-requisites", "-i", "--input-file", "-B", "--base", "--content-disposition", "--trust-server-names"],
  ...["--cut-dirs", "--protocol-directories", "--default-page"],
]

const WGET: BashProgramsScan.Spec = {
  flags: "bcdEFhHkKLmNpqrSvVx46",
  args: "ABDIilQRtTUwX",
  longArgs: [
    ...["--tries", "--timeout", "--wait", "--quota", "--user-agent", "--domains", "--reject", "--accept", "--include-directories", "--exclude-directories", "--level", "--input-file"],
    ...["--base", "--header", "--user", "--password", "--post-data", "--post-file", "--execute", "--config", "--use-askpass", "--cut-dirs", "--default-page", "--restrict-file-names"],
  ],
  longFlags: [
    ...["--quiet", "--verbose", "--no-verbose", "--continue", "--recursive", "--mirror", "--no-parent", "--no-clobber", "--timestamping", "--page-requisites", "--convert-links"],
    ...["--no-check-certificate", "--server-response", "--spider", "--force-directories", "--no-directories", "--no-host-directories", "--protocol-directories"],
    ...["--content-disposition", "--trust-server-names", "--adjust-extension"],
  ],
  // `--hsts-file` is written when wget exits, after an HTTPS answer with Strict-Transport-Security.
  files: ["-O", "--output-document", "-o", "--output-file", "-a", "--append-output", "--save-cookies", "--warc-file", "--rejected-log", "--hsts-file"],
  directories: ["-P", "--directory-prefix", "--warc-tempdir"],
  values: ["-n", "--restrict-file-names"],
  opaque: ["-e", "--execute", "--config", "--use-askpass"],
}

/** The letters of a reading's `-n` options (`-nH` is `H`, `-nv` is `v`). */
const noes = (reading: Reading) => reading.values.filter((value) => value.name === "-n").map((value) => value.value ?? "")

/**
 * wget without `-O`: each URL lands at its name (BashProgramsUrl.wgetPath) under `-P`, in the
 * host's and path's folders with `-x` (not the host's with `-nH`), with `.html` added under
 * `-E`. Recursion, lists, server names, a `--restrict-file-names` or `-n` that is not static:
 * unknown.
 */
const wget = BashProgramsScan.scan(WGET, (found) =>
  BashProgramsScan.union(
    found.readings.map((reading): BashProgramsScan.Verdict => {
      if (BashProgramsScan.saw(reading, ["-O", "--output-document"])) return BashProgramsScan.CLEAR
      const places = folders(reading, ["-P", "--directory-prefix"])
      const at = (path: string | undefined): ReadonlyArray<Write> => places.map((cwd) => ({ kind: "file", path, cwd }))
      const letters = noes(reading)
      const restricted = reading.values.some((value) => value.name === "--restrict-file-names")
      if (BashProgramsScan.saw(reading, WGET_UNKNOWABLE) || restricted || letters.some((value) => !BashProgramsScan.known(value))) return { opaque: false, writes: at(undefined) }
      const flat = letters.some((value) => value.includes("d")) || BashProgramsScan.saw(reading, ["--no-directories"])
      const options = {
        folders: !flat && BashProgramsScan.saw(reading, ["-x", "--force-directories"]),
        host: !letters.some((value) => value.includes("H")) && !BashProgramsScan.saw(reading, ["--no-host-directories"]),
      }
      const html = BashProgramsScan.saw(reading, ["-E", "--adjust-extension"])
      const writes = urlsOf(found, reading, []).flatMap((url) => {
        if (url === undefined) return at(undefined)
        const path = BashProgramsUrl.wgetPath(url, options)
        return html ? [...at(path), ...at(`${path}.html`)] : at(path)
      })
      return { opaque: false, writes }
    }),
  ),
)

export const PROGRAMS: ReadonlyArray<readonly [string, BashProgramsScan.Program]> = [
  ["curl", curl],
  ["wget", wget],
]
