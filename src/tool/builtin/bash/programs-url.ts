/**
 * Where a download lands when the URL names the file (07): curl `-O` keeps the last segment of
 * the URL's path as written (`%2e` stays), wget decodes it (all but `%2F`, which it keeps as
 * `%2F`) and keeps the query (`x?a=1`), and with `-x` puts it under the host (`host:port`) and
 * the path's folders. Dot segments are resolved first, as both do. A URL with no scheme is
 * http. Gotcha: a name of the empty last segment is `index.html` for wget, none for curl (it
 * refuses to write); undefined means the name cannot be known statically.
 */
export * as BashProgramsUrl from "./programs-url.js"

/** The name wget gives an empty last segment. */
export const WGET_INDEX = "index.html"

/** A URL split into the parts a name is made of. */
interface Parts {
  readonly host: string
  /** The path's segments, dot segments resolved. */
  readonly segments: ReadonlyArray<string>
  /** The query with its `?`, or "". */
  readonly query: string
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//

/** A `.` or `..` segment, spelled plainly or percent-encoded. */
const dots = (segment: string) => segment.replace(/%2e/gi, ".")

const parts = (url: string): Parts => {
  const rest = url.replace(SCHEME, "").split("#")[0] as string
  const slash = rest.search(/[/?]/)
  const authority = slash === -1 ? rest : rest.slice(0, slash)
  const tail = slash === -1 ? "" : rest.slice(slash)
  const mark = tail.indexOf("?")
  const path = mark === -1 ? tail : tail.slice(0, mark)
  const resolved: Array<string> = []
  const raw = path.split("/").slice(1)
  raw.forEach((segment, index) => {
    const plain = dots(segment)
    const last = index === raw.length - 1
    if (plain === "..") resolved.pop()
    if (plain === "." || plain === "..") {
      if (last) resolved.push("")
      return
    }
    resolved.push(segment)
  })
  return { host: authority.slice(authority.lastIndexOf("@") + 1), segments: resolved, query: mark === -1 ? "" : tail.slice(mark) }
}

/** wget's decoding of one segment: every `%XX` but `%2F` (kept, upper case) and control characters. */
const decoded = (segment: string) =>
  segment.replace(/%([0-9A-Fa-f]{2})/g, (match, hex: string) => {
    const code = Number.parseInt(hex, 16)
    if (code === 0x2f) return "%2F"
    return code < 0x20 || code === 0x7f ? match : String.fromCharCode(code)
  })

/**
 * The file `curl -O URL` writes, relative to where it writes: the last path segment as written;
 * none when it is empty.
 * @example BashProgramsUrl.curlName("http://h/a/.envrc?x=1") // ".envrc"
 */
export const curlName = (url: string): string | undefined => {
  const last = parts(url).segments.at(-1)
  return last === undefined || last === "" ? undefined : last
}

/**
 * The file `wget URL` writes, relative to where it writes: the decoded last segment with its
 * query (`index.html` when empty); with `folders`, under the path's folders, and the host's
 * folder first when `host`.
 * @example BashProgramsUrl.wgetPath("http://h:8/.git/config", { folders: true, host: false }) // ".git/config"
 */
export const wgetPath = (url: string, options: { readonly folders: boolean; readonly host: boolean }): string => {
  const { host, segments, query } = parts(url)
  const last = segments.at(-1) ?? ""
  const name = `${last === "" ? WGET_INDEX : decoded(last)}${query}`
  if (!options.folders) return name
  const folders = segments.slice(0, -1).map(decoded)
  return [...(options.host ? [host] : []), ...folders, name].join("/")
}
